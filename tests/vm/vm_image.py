# SPDX-License-Identifier: BSD-3-Clause
"""Guest image of make vm-test, from Debian packages only.

The Debian kernel (the linux-image-*-amd64 package that linux-image-amd64
depends on) and busybox-static are fetched with `apt-get download` into a
cache folder and unpacked with `dpkg-deb -x`: nothing is installed on the
host.  The initramfs holds busybox, tests/vm/init and the modules the guest
loads (virtio_pci, 9p over virtio, uio_pci_generic; the kernel's igb and
veth when asked) with their dependencies and a modules.dep made by busybox's depmod,
so that the guest's modprobe loads them in order.

Usage as a program: python3 vm_image.py CACHE_DIR   (prints kernel, initrd)
"""

import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# What tests/vm/init loads with modprobe; their dependencies come along.
GUEST_MODULES = ('virtio_pci', '9pnet_virtio', '9p', 'uio_pci_generic')
# Shipped too, loaded when the kernel command line asks (npvm.modprobe=):
# the kernel's igb driver, vm_test.py's control for -device igb; veth,
# for kernel_record.py's namespace router (Debian builds it as a module;
# multicast routing, IPv6 and AF_PACKET are built in).
EXTRA_MODULES = ('igb', 'veth')


class ImageError(Exception):
    pass


def _run(cmd, **kw):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, **kw)
    if res.returncode != 0:
        raise ImageError('%s: exit %d\n%s' % (' '.join(cmd), res.returncode,
                                              res.stdout.strip()))
    return res.stdout


def kernel_package():
    """linux-image-<abi>-amd64, the package linux-image-amd64 points at."""
    pkg = os.environ.get('NPVM_KERNEL_PKG')
    if pkg:
        return pkg
    for attempt in range(2):
        out = subprocess.run(['apt-cache', 'depends', 'linux-image-amd64'],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout
        m = re.search(r'Depends: (linux-image-[0-9][^\s]*-amd64)\b', out)
        if m:
            return m.group(1)
        if attempt == 0:    # package lists never fetched on this machine
            _run(['apt-get', 'update', '-q'])
    raise ImageError('apt-cache knows no linux-image-amd64 (Debian main)')


def _download(pkg, debs):
    """The .deb of pkg in debs/, fetched by apt-get download if missing."""
    name = pkg.split(':')[0]
    found = glob.glob(os.path.join(debs, name + '_*.deb'))
    if found:
        return sorted(found)[-1]
    os.makedirs(debs, exist_ok=True)
    try:
        _run(['apt-get', 'download', '-q', pkg], cwd=debs)
    except ImageError:
        _run(['apt-get', 'update', '-q'])
        _run(['apt-get', 'download', '-q', pkg], cwd=debs)
    found = glob.glob(os.path.join(debs, name + '_*.deb'))
    if not found:
        raise ImageError('apt-get download %s left no .deb in %s' % (pkg, debs))
    return found[0]


def _module_closure(moddir, names):
    """modules.dep lines of names and of everything they depend on."""
    dep = {}
    with open(os.path.join(moddir, 'modules.dep')) as f:
        for line in f:
            path, _, deps = line.partition(':')
            dep[path] = deps.split()
    by_name = {os.path.basename(p).split('.ko')[0].replace('-', '_'): p
               for p in dep}
    want, todo = [], []
    for n in names:
        if n not in by_name:
            raise ImageError('module %s not in %s/modules.dep' % (n, moddir))
        todo.append(by_name[n])
    while todo:
        p = todo.pop()
        if p in want:
            continue
        want.append(p)
        todo.extend(dep[p])
    return {p: dep[p] for p in want}


def _cpio(tree, out):
    """tree as a gzip'd newc cpio (busybox cpio), root-owned."""
    names = []
    for top, dirs, files in os.walk(tree):
        dirs.sort()
        for n in sorted(dirs) + sorted(files):
            names.append(os.path.relpath(os.path.join(top, n), tree))
    busybox = os.path.join(tree, 'bin', 'busybox')
    proc = subprocess.run([busybox, 'cpio', '-o', '-H', 'newc', '-R', '0:0'],
                          input=('\n'.join(names) + '\n').encode(), cwd=tree,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise ImageError('busybox cpio: %s' % proc.stderr.decode().strip())
    with gzip.open(out + '.tmp', 'wb', compresslevel=6) as f:
        f.write(proc.stdout)
    os.replace(out + '.tmp', out)


def _initramfs(root, rel, out):
    """busybox, init and the guest's modules (with a modules.dep) from the
    unpacked packages in root, as the initramfs out."""
    busybox = os.path.join(root, 'bin', 'busybox')
    moddir = os.path.join(root, 'lib', 'modules', rel)
    # The kernel package ships no modules.dep (its postinst makes one).
    _run([busybox, 'depmod', '-b', root, rel])
    mods = _module_closure(moddir, GUEST_MODULES + EXTRA_MODULES)
    tree = os.path.join(root, 'initramfs')
    os.makedirs(os.path.join(tree, 'bin'))
    shutil.copy2(busybox, os.path.join(tree, 'bin', 'busybox'))
    shutil.copy2(os.path.join(HERE, 'init'), os.path.join(tree, 'init'))
    os.chmod(os.path.join(tree, 'init'), 0o755)
    tmod = os.path.join(tree, 'lib', 'modules', rel)
    for path in mods:
        os.makedirs(os.path.join(tmod, os.path.dirname(path)), exist_ok=True)
        shutil.copy2(os.path.join(moddir, path), os.path.join(tmod, path))
    with open(os.path.join(tmod, 'modules.dep'), 'w') as f:
        for path, deps in mods.items():
            f.write('%s: %s\n' % (path, ' '.join(deps)))
    _cpio(tree, out)


def build(cache):
    """(kernel path, initramfs path, kernel release) in cache/: made once,
    again when tests/vm/init or this file change."""
    cache = os.path.abspath(cache)
    kpkg = kernel_package()
    rel = kpkg[len('linux-image-'):]
    kernel = os.path.join(cache, 'vmlinuz-' + rel)
    initrd = os.path.join(cache, 'initramfs-%s.cpio.gz' % rel)
    newest = max(os.path.getmtime(os.path.join(HERE, 'init')),
                 os.path.getmtime(os.path.abspath(__file__)))
    if (os.path.exists(kernel) and os.path.exists(initrd) and
            os.path.getmtime(initrd) >= newest):
        return kernel, initrd, rel
    debs = os.path.join(cache, 'debs')
    kdeb = _download(kpkg, debs)
    bdeb = _download('busybox-static', debs)
    root = tempfile.mkdtemp(prefix='unpacked.', dir=cache)
    try:
        for deb in (kdeb, bdeb):
            _run(['dpkg-deb', '-x', deb, root])
        if not os.path.isdir(os.path.join(root, 'lib', 'modules', rel)):
            raise ImageError('%s holds no lib/modules/%s' % (kdeb, rel))
        _initramfs(root, rel, initrd)
        shutil.copy2(os.path.join(root, 'boot', 'vmlinuz-' + rel), kernel)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return kernel, initrd, rel


if __name__ == '__main__':
    try:
        k, i, r = build(sys.argv[1])
    except ImageError as e:
        sys.exit('vm_image: %s' % e)
    print(k)
    print(i)
