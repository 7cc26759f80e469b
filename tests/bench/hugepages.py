#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""2 MiB hugepages for a run, given back after it (root only).

The reservation is relative: another process (another engineer's test or
bench) may reserve or free pages meanwhile, so the run adds what it needs
to /proc/sys/vm/nr_hugepages, remembers what the kernel really added, and
at the end takes exactly that much off again; a hugetlbfs it mounted is
unmounted, one that was there stays.

Used as a module (tests/integration/dpdk_tools.py) and from the shell
(scripts/bench.sh), which keeps the state in a file between the calls:

  hugepages.py reserve --pages N --state FILE [--mount DIR] [--need M]
      prints "DIR FREE ADDED" (the hugetlbfs to pass as --huge-dir, the
      free pages, the pages added); "- 0 0", nothing kept, when fewer
      than M pages (default 1) could be had.
  hugepages.py release --state FILE
      gives back what the reserve of FILE added and unmounts what it
      mounted; a missing FILE is nothing to give back.
"""

import argparse
import fcntl
import json
import os
import subprocess
import sys

NR = '/proc/sys/vm/nr_hugepages'
# held by an exclusive reservation (root only, as the reservation)
LOCK = '/run/lock/npool-hugepages.lock'


def meminfo(key):
    """A /proc/meminfo value (pages for HugePages_*), 0 when absent."""
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith(key + ':'):
                return int(line.split()[1])
    return 0


def _nr():
    with open(NR) as f:
        return int(f.read())


def _set_nr(n):
    with open(NR, 'w') as f:
        f.write(str(n))


def hugetlbfs_mounts():
    with open('/proc/mounts') as f:
        return [l.split()[1] for l in f if l.split()[2] == 'hugetlbfs']


class Hugepages:
    """At least n free 2 MiB pages and a hugetlbfs for the run.

    mount=None: any hugetlbfs already mounted, else one mounted on
    /dev/hugepages; mount=DIR: a private hugetlbfs mounted on DIR (pass
    it as --huge-dir: no other run's files, nobody unmounts it under us).
    exclusive=True: from reserve() to release() hold LOCK, so that the
    tests meson runs side by side take their pages one after the other
    (two reservations read the same free count and would share pages),
    while they run in parallel with the tests that need none.
    """

    def __init__(self, n, mount=None, exclusive=False):
        self.n, self.want_mount = n, mount
        self.added, self.mounted, self.dir = 0, None, None
        self.exclusive, self.lock = exclusive, None

    def reserve(self):
        """Reserve; returns the free pages (may be fewer than n)."""
        if self.exclusive and self.lock is None:
            os.makedirs(os.path.dirname(LOCK), exist_ok=True)
            self.lock = open(LOCK, 'a')
            fcntl.flock(self.lock, fcntl.LOCK_EX)
        try:
            # Another process may take pages meanwhile: ask again, twice.
            for _ in range(3):
                free = meminfo('HugePages_Free')
                if free >= self.n:
                    break
                total = _nr()
                _set_nr(total + self.n - free)
                # What the kernel really added (it may give fewer).
                self.added += max(_nr() - total, 0)
            self.dir = self._mount()
        except (OSError, subprocess.CalledProcessError):
            self.release()
            return 0
        return meminfo('HugePages_Free')

    def _mount(self):
        if self.want_mount is None:
            mounts = hugetlbfs_mounts()
            if mounts:
                return mounts[0]
            target = '/dev/hugepages'
        else:
            target = self.want_mount
        os.makedirs(target, exist_ok=True)
        subprocess.run(['mount', '-t', 'hugetlbfs', '-o', 'pagesize=2M',
                        'nodev', target], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.mounted = target
        return target

    def release(self):
        """Unmount what reserve() mounted, give back what it added."""
        if self.mounted:
            subprocess.run(['umount', self.mounted])
            if self.want_mount is not None:
                try:
                    os.rmdir(self.mounted)
                except OSError:
                    pass
            self.mounted = None
        if self.added:
            # Relative: another run may have reserved pages meanwhile,
            # and keeps them.
            _set_nr(max(_nr() - self.added, 0))
            self.added = 0
        if self.lock is not None:
            self.lock.close()
            self.lock = None

    def __enter__(self):
        self.reserve()
        return self

    def __exit__(self, *exc):
        self.release()

    def save(self, path):
        with open(path, 'w') as f:
            json.dump({'n': self.n, 'added': self.added,
                       'mounted': self.mounted, 'dir': self.dir,
                       'want_mount': self.want_mount}, f)

    @classmethod
    def load(cls, path):
        with open(path) as f:
            st = json.load(f)
        h = cls(st['n'], st['want_mount'])
        h.added, h.mounted, h.dir = st['added'], st['mounted'], st['dir']
        return h


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('what', choices=('reserve', 'release'))
    ap.add_argument('--pages', type=int, default=1024)
    ap.add_argument('--state', required=True)
    ap.add_argument('--mount', help='mount a private hugetlbfs here')
    ap.add_argument('--need', type=int, default=1,
                    help='fewer free pages than this: none at all')
    a = ap.parse_args()
    if a.what == 'release':
        if not os.path.exists(a.state):
            return 0
        h = Hugepages.load(a.state)
        h.release()
        os.unlink(a.state)
        return 0
    h = Hugepages(a.pages, a.mount)
    if os.geteuid() != 0 or not os.path.exists(NR):
        print('- 0 0')
        return 0
    free = h.reserve()
    if free < max(a.need, 1) or h.dir is None:
        h.release()
        print('- 0 0')
        return 0
    h.save(a.state)
    print('%s %d %d' % (h.dir, free, h.added))
    return 0


if __name__ == '__main__':
    sys.exit(main())
