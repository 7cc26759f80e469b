# SPDX-License-Identifier: BSD-3-Clause
"""Which QEMU runs which -device model in make vm-test.

e1000e and e1000 run on the host's qemu-system-x86_64 (Debian 12: QEMU
7.2).  igb (82576, 8086:10c9) came with QEMU 8.0; on a Debian 12 host it
runs on Debian 13's QEMU 10 from the trixie root of scripts/lts-test.sh
(`lts-test.sh root 24.11` with NPOOL_LTS_EXTRA=qemu-system-x86: a
debootstrap'd root made once, about 80 s and 850 MB, then reused while
its key holds).  That QEMU starts through the root's own dynamic loader
(ROOT/lib64/ld-linux-x86-64.so.2 --library-path ROOT's lib folders) with
-L ROOT/usr/share/qemu and ROOT/usr/share/seabios, not in a chroot: it
then sees the host's files (the guest kernel and initramfs, the 9p shares
of / and of the run folder, /dev/net/tun of namespace npvm-a) exactly as
the host's QEMU 7.2 does, and every guest runs the host's npool-fwd.

Order for a model (the first that lists it in -device help):
  NPVM_QEMU_<MODEL> (e.g. NPVM_QEMU_IGB=/opt/qemu/bin/qemu-system-x86_64),
  the host's qemu-system-x86_64, then (igb only) the trixie root, cached
  in NPVM_LTS_CACHE (default BUILD/vm/lts: not lts-test's own cache,
  whose root has no QEMU and would be rebuilt back and forth).
"""

import fcntl
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
LTS_TEST = os.path.join(HERE, '..', '..', 'scripts', 'lts-test.sh')
LTS_RELEASE = '24.11'            # trixie, Debian 13: QEMU 10.0
LTS_SUITE = 'trixie'
ARCH_LIBS = ('lib/x86_64-linux-gnu', 'usr/lib/x86_64-linux-gnu')
FIRMWARE = ('usr/share/qemu', 'usr/share/seabios', 'usr/lib/ipxe/qemu')


class QemuError(Exception):
    pass


class Qemu:
    """A QEMU to run: argv prefix (before the options), its -L options,
    the version line and where it came from."""

    def __init__(self, prefix, data_dirs, where, env=None):
        self.prefix = list(prefix)
        self.env = dict(env or {})
        self.data = []
        for d in data_dirs:
            if os.path.isdir(d):
                self.data += ['-L', d]
        self.where = where
        self.version = self._query(['--version']).splitlines()[0]
        self.lock = None

    def _query(self, args):
        p = subprocess.run(self.prefix + args, env=self.environ(),
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           text=True, timeout=60)
        if p.returncode != 0:
            raise QemuError('%s: exit %d: %s' % (' '.join(self.prefix + args),
                                                 p.returncode,
                                                 p.stdout.strip()[-400:]))
        return p.stdout

    def has_device(self, model):
        return re.search(r'^name "%s"' % re.escape(model),
                         self._query(['-device', 'help']), re.M) is not None

    def argv(self, options):
        return self.prefix + self.data + list(options)

    def environ(self):
        """The environment to start it with."""
        return dict(os.environ, **self.env)


def guest_options(kernel, initrd, run, runner, accel, smp, mem_mib,
                  modprobe=()):
    """QEMU options of a guest of tests/vm/init: no NIC, the console to
    run/console.log, the host's root (read-only) and the folder run
    (writable) over 9p; init loads the modules of modprobe (shipped in
    the initramfs: vm_image.py) and runs the host's script runner."""
    more = ' npvm.modprobe=' + ','.join(modprobe) if modprobe else ''
    cmd = ['-machine', 'pc', '-accel', accel,
           '-cpu', 'max' if accel == 'tcg' else 'host', '-smp', str(smp),
           '-m', str(mem_mib), '-nodefaults', '-display', 'none',
           '-no-reboot', '-serial', 'file:' + os.path.join(run, 'console.log'),
           '-kernel', kernel, '-initrd', initrd,
           '-append', 'console=ttyS0 panic=-1 quiet npvm.run=%s npvm.out=%s%s'
           % (runner, run, more)]
    for tag, path, ro, slot in (('hostroot', '/', ',readonly=on', 6),
                                ('npvmout', run, '', 7)):
        cmd += ['-fsdev', 'local,id=%s,path=%s,security_model=none,'
                'multidevs=remap%s' % (tag, path, ro),
                '-device', 'virtio-9p-pci,fsdev=%s,mount_tag=%s,addr=0x%x' % (
                    tag, tag, slot)]
    return cmd


def host():
    """The host's qemu-system-x86_64, or None."""
    path = shutil.which('qemu-system-x86_64')
    return Qemu([path], (), 'host %s' % path) if path else None


def _lts_root(build, log):
    """QEMU from the trixie root (made or checked by lts-test.sh root)."""
    cache = os.path.abspath(os.environ.get('NPVM_LTS_CACHE') or
                            os.path.join(build, 'vm', 'lts'))
    env = dict(os.environ, NPOOL_LTS_CACHE=cache,
               NPOOL_LTS_EXTRA='qemu-system-x86')
    log('%s root %s (NPOOL_LTS_CACHE=%s NPOOL_LTS_EXTRA=qemu-system-x86)' %
        (os.path.relpath(LTS_TEST), LTS_RELEASE, cache))
    p = subprocess.run(['bash', LTS_TEST, 'root', LTS_RELEASE], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True, timeout=1800)
    for ln in p.stderr.strip().splitlines():
        log('| ' + ln)
    root = (p.stdout.strip().splitlines() or [''])[-1]
    if p.returncode != 0 or not os.path.isdir(root):
        raise QemuError('lts-test.sh root %s: exit %d (log %s)' % (
            LTS_RELEASE, p.returncode,
            os.path.join(cache, LTS_SUITE, 'prepare.log')))
    # Held shared while the guest runs: lts-test.sh rebuilds a root only
    # under an exclusive lock of this file.
    lock = open(os.path.join(cache, LTS_SUITE, 'lock'), 'a')
    fcntl.flock(lock, fcntl.LOCK_SH)
    loader = os.path.join(root, 'lib64', 'ld-linux-x86-64.so.2')
    binary = os.path.join(root, 'usr', 'bin', 'qemu-system-x86_64')
    libs = ':'.join(os.path.join(root, d) for d in ARCH_LIBS)
    prefix = [loader, '--library-path', libs, binary]
    # Its modules (hw-usb-host.so, ...), not the host QEMU's: QEMU tries
    # QEMU_MODULE_DIR, then its build's folder, which on the host holds
    # 7.2's (a module of another build aborts it: "Only modules from the
    # same build can be loaded"). Bound over that folder in a mount
    # namespace of QEMU's own.
    mods = os.path.join(root, ARCH_LIBS[1], 'qemu')
    host_mods = '/' + os.path.join(ARCH_LIBS[1], 'qemu')
    if os.path.isdir(host_mods):
        prefix = ['unshare', '--mount', '--propagation', 'private', 'sh',
                  '-c', 'mount --bind "$1" "$2" && shift 2 && exec "$@"',
                  'sh', mods, host_mods] + prefix
    q = Qemu(prefix, [os.path.join(root, d) for d in FIRMWARE],
             'Debian 13 root %s (its ld.so, libraries, modules and '
             'firmware)' % root, {'QEMU_MODULE_DIR': mods})
    q.lock = lock
    return q


def for_device(model, build, log):
    """The Qemu that runs -device model; QemuError if none does."""
    tried = []
    var = 'NPVM_QEMU_' + re.sub(r'[^A-Z0-9]', '_', model.upper())
    if os.environ.get(var):
        q = Qemu([os.environ[var]], (), '%s=%s' % (var, os.environ[var]))
        if q.has_device(model):
            return q
        raise QemuError('%s (%s) has no -device %s' % (q.where, q.version,
                                                       model))
    q = host()
    if q is not None:
        if q.has_device(model):
            return q
        tried.append('%s (%s)' % (q.where, q.version))
    if model == 'igb':
        q = _lts_root(build, log)
        if q.has_device(model):
            return q
        tried.append('%s (%s)' % (q.where, q.version))
    raise QemuError('no QEMU with -device %s: tried %s; set %s' % (
        model, ', '.join(tried) or 'none', var))
