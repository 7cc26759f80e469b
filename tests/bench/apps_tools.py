#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The tools the app benchmarks run: npool's apps, dpdk-testpmd, and DPDK's
l3fwd example built from dpdk-doc's source."""

import os
import shutil
import subprocess


class Tools:
    """Paths of the tools; None with a reason when one is missing."""

    def __init__(self, args):
        self.bin = {}
        self.why = {}
        for name, path in (('npool-drop', args.drop),
                           ('npool-fwd', args.fwd)):
            if path and os.access(path, os.X_OK):
                self.bin[name] = path
            else:
                self.why[name] = 'not built (%s)' % path
        tp = shutil.which('dpdk-testpmd')
        if tp:
            self.bin['testpmd'] = tp
        else:
            self.why['testpmd'] = 'dpdk-testpmd not found (Debian package dpdk)'
        l3, why = build_l3fwd(args.l3fwd_dir, args.pkg_config_path)
        if l3:
            self.bin['l3fwd'] = l3
        else:
            self.why['l3fwd'] = why
        self.l3fwd_march = _march_of(os.path.join(args.l3fwd_dir,
                                                  'build.log'))


def _march_of(log):
    try:
        with open(log) as f:
            m = [w for w in f.read().split() if w.startswith('-march=')]
        return m[-1] if m else '?'
    except OSError:
        return '?'


def build_l3fwd(top, pc_path):
    """Build DPDK's l3fwd example from dpdk-doc's source in @top (a copy:
    the source tree stays untouched). Returns (binary, None) or
    (None, why)."""
    src = '/usr/share/dpdk/examples/l3fwd'
    common = '/usr/share/dpdk/examples/common'
    log = os.path.join(top, 'build.log')
    binary = os.path.join(top, 'l3fwd', 'build', 'l3fwd')
    stamp = os.path.join(top, 'stamp')
    key = '%s %s' % (pc_path or '-', _tree_mtime(src))
    try:
        with open(stamp) as f:
            if f.read() == key and os.access(binary, os.X_OK):
                return binary, None
    except OSError:
        pass
    if not os.path.isfile(os.path.join(src, 'main.c')):
        return None, 'no source in %s (Debian package dpdk-doc)' % src
    if shutil.which('make') is None or shutil.which('cc') is None:
        return None, 'make or cc missing'
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    shutil.copytree(src, os.path.join(top, 'l3fwd'))
    if os.path.isdir(common):
        shutil.copytree(common, os.path.join(top, 'common'))
    main_c = os.path.join(top, 'l3fwd', 'main.c')
    with open(main_c) as f:
        text = f.read()
    # 22.11 asks every port for RX checksum offload, which no vdev has
    # (rte_eth_dev_configure fails): ask for none. Nothing else changes.
    old = '.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM,'
    if old not in text:
        return None, 'l3fwd main.c: RX offload line not found (patch)'
    with open(main_c, 'w') as f:
        f.write(text.replace(old, '.offloads = 0, /* npool bench: vdevs '
                             'have no RX checksum offload */', 1))
    env = dict(os.environ)
    if pc_path:
        env['PKG_CONFIG_PATH'] = pc_path + (
            ':' + env['PKG_CONFIG_PATH'] if env.get('PKG_CONFIG_PATH')
            else '')
    with open(log, 'w') as f:
        r = subprocess.run(['make', '-C', os.path.join(top, 'l3fwd')],
                           stdout=f, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0 or not os.access(binary, os.X_OK):
        return None, 'build failed (%s)' % log
    with open(stamp, 'w') as f:
        f.write(key)
    return binary, None


def _tree_mtime(d):
    try:
        return max(os.stat(os.path.join(d, n)).st_mtime_ns
                   for n in os.listdir(d))
    except (OSError, ValueError):
        return 0
