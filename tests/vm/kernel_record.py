# SPDX-License-Identifier: BSD-3-Clause
"""make kernel-record: the Linux router's outcomes of every case of
tests/integration/kernel_cast.py, which it compares npool-fwd with where
the kernel lacks a feature (multicast routing, ...): written to
tests/data/kernel/cast.json (or FILE).

Where this kernel has every feature the cases need (kfeatures.py), it
runs `kernel_cast.py --record` here. Else it boots Debian's kernel (which
has them) in a QEMU guest as make vm-test does (vm_image.py, vm_qemu.py,
TCG, no NIC: the guest's namespaces and veths are the topology) and runs
it there (tests/vm/guest_record.sh), with more time per case; the file is
copied out only when every outcome was as its case expects.

Usage: kernel_record.py BUILD_DIR [FILE]    (root; make kernel-record)
Environment: NPVM_ACCEL (tcg, default, or kvm), NPVM_FORCE_GUEST=1 (the
guest even when this kernel could record).
"""

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'tests', 'integration', 'lib'))
sys.path.insert(0, os.path.join(TOP, 'tests', 'integration'))

import kernel_cast  # noqa: E402
import kfeatures  # noqa: E402
import vm_image  # noqa: E402
import vm_qemu  # noqa: E402
GUEST_WAIT_S = 1.0              # kernel_cast.py --wait in the guest (TCG)
GUEST_TIMEOUT = 1800            # QEMU start to poweroff, s


def log(msg):
    print('kernel-record: ' + msg, flush=True)


def in_guest(build, out):
    """kernel_cast.py --record in a QEMU guest; the file to @out. Returns
    the exit status."""
    vmdir = os.path.join(build, 'vm')
    kernel, initrd, rel = vm_image.build(vmdir)
    qemu = vm_qemu.host()
    if qemu is None:
        subprocess.run(['bash', os.path.join(TOP, 'scripts', 'deps.sh'),
                        'vm'], check=True)
        qemu = vm_qemu.host()
    if qemu is None:
        log('no qemu-system-x86_64 (Debian: qemu-system-x86)')
        return 1
    run = os.path.join(vmdir, 'run-record')
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    with open(os.path.join(run, 'config'), 'w') as f:
        f.write('WAIT=%s\n' % GUEST_WAIT_S)
    accel = os.environ.get('NPVM_ACCEL', 'tcg')
    cmd = qemu.argv(vm_qemu.guest_options(
        kernel, initrd, run, os.path.join(HERE, 'guest_record.sh'), accel,
        2, 1024, ['veth']))
    log('guest: Debian kernel %s, %s (%s), -accel %s' % (
        rel, qemu.version, qemu.where, accel))
    log(' '.join(cmd))
    t0 = time.monotonic()
    with open(os.path.join(run, 'qemu.log'), 'w') as qlog:
        p = subprocess.Popen(cmd, env=qemu.environ(), stdin=subprocess.DEVNULL,
                             stdout=qlog, stderr=subprocess.STDOUT)
        try:
            p.wait(GUEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            log('the guest did not finish within %d s' % GUEST_TIMEOUT)
    try:
        with open(os.path.join(run, 'record.log')) as f:
            sys.stdout.write(''.join('  | ' + ln for ln in f))
        with open(os.path.join(run, 'guest-rc')) as f:
            rc = int(f.read().strip() or 1)
    except (OSError, ValueError):
        with open(os.path.join(run, 'console.log'), errors='replace') as f:
            tail = f.read().splitlines()[-30:]
        log('no result from the guest; its console (last lines):\n' +
            '\n'.join('  | ' + ln for ln in tail))
        return 1
    log('guest done in %.0f s, status %d' % (time.monotonic() - t0, rc))
    if rc != 0:
        return rc
    shutil.copyfile(os.path.join(run, 'cast.json'), out)
    return 0


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    if os.geteuid() != 0:
        log('must run as root (network namespaces; QEMU for the guest)')
        return 1
    build = os.path.abspath(argv[1])
    out = os.path.abspath(argv[2] if len(argv) == 3 else
                          kernel_cast.RECORDING)
    got = kfeatures.probe()
    missing = [kfeatures.missing_text(f, got[f])
               for f in kernel_cast.FEATURES if got.get(f)]
    if not missing and not os.environ.get('NPVM_FORCE_GUEST'):
        log('this kernel (%s) has every feature: recording here' %
            os.uname().release)
        rc = subprocess.run([sys.executable, kernel_cast.__file__,
                             '--record', out]).returncode
    else:
        log('this kernel (%s): %s: recording in a QEMU guest' % (
            os.uname().release, '; '.join(missing) or 'NPVM_FORCE_GUEST'))
        try:
            rc = in_guest(build, out)
        except (vm_image.ImageError, vm_qemu.QemuError,
                subprocess.CalledProcessError) as e:
            log(str(e))
            rc = 1
    log('%s: %s' % ('written' if rc == 0 else 'FAILED, not written',
                    os.path.relpath(out)))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
