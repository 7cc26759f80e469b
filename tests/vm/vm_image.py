# SPDX-License-Identifier: BSD-3-Clause
"""Guest image of make vm-test, from Debian packages only.

The Debian kernel (the linux-image-*-amd64 package that linux-image-amd64
depends on) and busybox-static are fetched with `apt-get download` into a
cache folder and unpacked with `dpkg-deb -x`: nothing is installed on the
host.  The initramfs holds busybox, tests/vm/init and the modules the guest
loads (virtio_pci, 9p over virtio, uio_pci_generic) with their dependencies
and a modules.dep made by busybox's depmod, so that the guest's modprobe
loads them in order.

Usage as a program: python3 vm_image.py CACHE_DIR   (prints kernel, initrd)
"""

import glob
import gzip
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# What tests/vm/init loads with modprobe; their dependencies come along.
GUEST_MODULES = ('virtio_pci', '9pnet_virtio', '9p', 'uio_pci_generic')


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


def _unpack(deb, root, stamp):
    """dpkg-deb -x deb into root, once per .deb (a stamp file remembers)."""
    mark = os.path.join(root, '.unpacked-' + stamp)
    if os.path.exists(mark) and open(mark).read() == os.path.basename(deb):
        return
    os.makedirs(root, exist_ok=True)
    _run(['dpkg-deb', '-x', deb, root])
    with open(mark, 'w') as f:
        f.write(os.path.basename(deb))


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


def build(cache):
    """(kernel path, initramfs path, kernel release) in cache/."""
    cache = os.path.abspath(cache)
    kpkg = kernel_package()
    kdeb = _download(kpkg, os.path.join(cache, 'debs'))
    bdeb = _download('busybox-static', os.path.join(cache, 'debs'))
    root = os.path.join(cache, 'root')
    _unpack(kdeb, root, 'kernel')
    _unpack(bdeb, root, 'busybox')
    rels = sorted(os.listdir(os.path.join(root, 'lib', 'modules')))
    rel = kpkg[len('linux-image-'):]
    if rel not in rels:
        raise ImageError('%s holds no lib/modules/%s (has %s)' % (kdeb, rel, rels))
    kernel = os.path.join(root, 'boot', 'vmlinuz-' + rel)
    busybox = os.path.join(root, 'bin', 'busybox')
    moddir = os.path.join(root, 'lib', 'modules', rel)
    if not os.path.exists(os.path.join(moddir, 'modules.dep')):
        # The package ships no modules.dep (its postinst makes one).
        _run([busybox, 'depmod', '-b', root, rel])

    initrd = os.path.join(cache, 'initramfs-%s.cpio.gz' % rel)
    init = os.path.join(HERE, 'init')
    if (os.path.exists(initrd) and
            os.path.getmtime(initrd) >= os.path.getmtime(init) and
            os.path.getmtime(initrd) >= os.path.getmtime(__file__)):
        return kernel, initrd, rel
    tree = os.path.join(cache, 'initramfs')
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, 'bin'))
    shutil.copy2(busybox, os.path.join(tree, 'bin', 'busybox'))
    shutil.copy2(init, os.path.join(tree, 'init'))
    os.chmod(os.path.join(tree, 'init'), 0o755)
    mods = _module_closure(moddir, GUEST_MODULES)
    tmod = os.path.join(tree, 'lib', 'modules', rel)
    for path in mods:
        os.makedirs(os.path.join(tmod, os.path.dirname(path)), exist_ok=True)
        shutil.copy2(os.path.join(moddir, path), os.path.join(tmod, path))
    with open(os.path.join(tmod, 'modules.dep'), 'w') as f:
        for path, deps in mods.items():
            f.write('%s: %s\n' % (path, ' '.join(deps)))
    _cpio(tree, initrd)
    return kernel, initrd, rel


if __name__ == '__main__':
    try:
        k, i, r = build(sys.argv[1])
    except ImageError as e:
        sys.exit('vm_image: %s' % e)
    print(k)
    print(i)
