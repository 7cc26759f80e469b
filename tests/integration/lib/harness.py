# SPDX-License-Identifier: BSD-3-Clause
"""Running npool apps on net_pcap vdevs from a test: EAL arguments, unique
file prefixes, temp folders, time limits and clean-up (python3 stdlib)."""

import glob
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import netns
import pcaplib

SKIP = 77   # meson's exit code for a skipped test
# Sanitizer builds run slower: their test setup (tests/sanitizers) sets
# this, and every time limit given to run() is multiplied by it.
TIMEOUT_MULTIPLIER = float(os.environ.get('NPOOL_TEST_TIMEOUT_MULTIPLIER')
                           or 1)
APP_TIMEOUT = 180

_seq = itertools.count()


def log(*args):
    print(*args, flush=True)


def skip(msg):
    log('SKIP: ' + msg)
    sys.exit(SKIP)


class Checks:
    """What a test found: fail() logs a problem and keeps it in probs,
    check() logs an outcome, ok or not (the namespace tests' runs)."""

    def __init__(self):
        self.probs = []

    def fail(self, msg):
        log('  FAIL ' + msg)
        self.probs.append(msg)

    def check(self, ok, msg):
        """Log @msg as ok, or fail with it; returns @ok."""
        if ok:
            log('  ok   ' + msg)
        else:
            self.fail(msg)
        return ok


def require_captures(path):
    """The captures are part of the tree (tests/data/captures): a missing
    folder is a failure, not a skip."""
    if not path or not os.path.isdir(path):
        log('FAIL: no capture folder %s (tests/data/captures in the '
            'repository)' % path)
        sys.exit(1)


def require_app(path, what):
    """The app is part of the build: a missing binary is a failure."""
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        log('FAIL: %s not built (%s): build it with ninja -C build'
            % (what, path))
        sys.exit(1)


def runtime_dirs(prefix):
    """Where EAL puts a primary process's runtime folder (eal_filesystem.h):
    /var/run/dpdk/<prefix> for root, else $XDG_RUNTIME_DIR or /tmp."""
    dirs = ['/var/run/dpdk/' + prefix, '/tmp/dpdk/' + prefix]
    xdg = os.environ.get('XDG_RUNTIME_DIR')
    if xdg:
        dirs.append(os.path.join(xdg, 'dpdk', prefix))
    return dirs


class Workdir:
    """A temp folder and a unique EAL file prefix; both are removed on exit
    (unless keep is true, for debugging)."""

    def __init__(self, tag, keep=False):
        self.keep = keep
        self.path = tempfile.mkdtemp(prefix='npool-it-%s-' % tag)
        self.prefixes = []

    def new_prefix(self):
        p = 'npool-it-%d-%d' % (os.getpid(), next(_seq))
        self.prefixes.append(p)
        return p

    def file(self, name):
        return os.path.join(self.path, name)

    def cleanup(self):
        for p in self.prefixes:
            for d in runtime_dirs(p):
                shutil.rmtree(d, ignore_errors=True)
        if self.keep:
            log('kept ' + self.path)
        else:
            shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cleanup()


def sanitized(path, runtimes='asan|ubsan|tsan'):
    """Whether the binary or library at @path needs one of the sanitizer
    @runtimes (a SANITIZE= build)."""
    p = subprocess.run(['readelf', '-d', path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return re.search(rb'NEEDED.*lib(%s)' % runtimes.encode(),
                     p.stdout) is not None


def plugin_copy(build):
    """EAL loads a -d plugin only from a folder no parent of which is
    world-writable (a build under /tmp is refused, realpath and all):
    the build's plugin and the libnpool it needs ($ORIGIN) copied into a
    new private folder under /run. Returns (folder, plugin path); the
    caller removes the folder. A folder a killed test left (meson's
    SIGTERM at a timeout runs no cleanup) is removed here the next time:
    its name carries the PID that made it."""
    for old in glob.glob('/run/npool-plugin-*-*'):
        pid = os.path.basename(old).split('-')[2]
        if pid.isdigit() and not os.path.exists('/proc/%s' % pid):
            shutil.rmtree(old, ignore_errors=True)
    d = tempfile.mkdtemp(prefix='npool-plugin-%d-' % os.getpid(),
                         dir='/run')
    for name in ('librte_mempool_npool.so', 'libnpool.so.0'):
        shutil.copy(os.path.join(build, name), os.path.join(d, name))
    return d, os.path.join(d, 'librte_mempool_npool.so')


def create_topology(topo):
    """topo.create() (a netns.Topology); a machine without network
    namespaces or veth skips the test."""
    try:
        topo.create()
    except netns.NetnsError as e:
        if 'netns add' in str(e) or 'type veth' in str(e):
            skip('no network namespaces or veth here: %s' % e)
        raise


def eal_args(prefix, vdevs, lcores='0', telemetry=False):
    """EAL arguments without hugepages or PCI; `lcores` with an '@' is an
    --lcores map (more lcores than this machine's CPUs)."""
    args = ['--no-huge', '-m', '1024', '--no-pci', '--no-shconf',
            '--file-prefix', prefix]
    if not telemetry:
        args.append('--no-telemetry')
    args += ['--lcores' if '@' in lcores else '-l', lcores]
    for v in vdevs:
        args += ['--vdev', v]
    return args


def pcap_vdevs(work, rx_files, nports, queues=1):
    """net_pcap vdevs with `queues` RX and TX queues each: port 0 queue k
    reads rx_files[k], every other RX queue reads an empty capture; TX queue
    k of port p writes tx_<p>_<k>.pcap.  Returns (vdev args, tx paths as
    txs[port][queue])."""
    empty = work.file('empty.pcap')
    if not os.path.exists(empty):
        pcaplib.write_empty(empty)
    vdevs, txs = [], []
    for p in range(nports):
        args = ['net_pcap%d' % p]
        for k in range(queues):
            rx = rx_files[k] if p == 0 and k < len(rx_files) else empty
            args.append('rx_pcap=' + rx)
        txs.append([])
        for k in range(queues):
            tx = work.file('tx_%d_%d.pcap' % (p, k))
            if os.path.exists(tx):
                os.unlink(tx)
            args.append('tx_pcap=' + tx)
            txs[p].append(tx)
        vdevs.append(','.join(args))
    return vdevs, txs


class Result:
    def __init__(self, cmd, rc, out, err, timed_out):
        self.cmd = cmd
        self.rc = rc
        self.stdout = out
        self.stderr = err
        self.timed_out = timed_out
        self.json = None

    @property
    def crashed(self):
        return self.rc is None or self.rc < 0 or self.rc >= 128

    def describe(self):
        if self.timed_out:
            return 'timed out'
        if self.rc < 0:
            return 'killed by signal %d' % -self.rc
        return 'exit status %d' % self.rc

    def tail(self, n=15):
        """The app's own error lines ("npool-...: ...") then the last n
        lines of its output."""
        lines = (self.stdout + self.stderr).splitlines()
        errs = [l for l in lines if l.startswith('npool-') and ': ' in l
                and l not in lines[-n:]][:3]
        return '\n'.join('    | ' + l for l in errs + lines[-n:])


# First line of a report by ASan, LSan, UBSan or TSan; a report ends with
# its "SUMMARY: ...Sanitizer" line.
_SAN_START = re.compile(r'^(==\d+==ERROR: \w+Sanitizer|WARNING: \w+Sanitizer'
                        r'|.*: runtime error: )')
_SAN_END = re.compile(r'^SUMMARY: \w+Sanitizer')


def sanitizer_reports(text, max_lines=80):
    """The sanitizer reports in an app's output, each cut to max_lines,
    joined; '' when there is none."""
    reports, cur = [], None
    for line in text.splitlines():
        if cur is None and _SAN_START.match(line):
            cur = []
        if cur is None:
            continue
        if len(cur) < max_lines:
            cur.append(line)
        if _SAN_END.match(line):
            reports.append('\n'.join(cur))
            cur = None
    if cur:
        reports.append('\n'.join(cur))
    return '\n'.join(reports)


class SanitizerFinding(Exception):
    """An app printed a sanitizer report: the test fails, whatever the
    exit status it expected."""


def check_sanitizers(res):
    """Log the sanitizer reports in res's output, if any, and raise
    SanitizerFinding. A sanitizer build aborts on the first report
    (tests/sanitizers), which most checks see as a crash; this also fails
    the tests that expect an app to fail, and shows the report itself
    rather than the last lines of output."""
    rep = sanitizer_reports(res.stdout + '\n' + res.stderr)
    if rep:
        log('FAIL: sanitizer report (%s) from: %s'
            % (res.describe(), ' '.join(res.cmd)))
        log(rep)
        raise SanitizerFinding(rep.splitlines()[0])
    return res


def run(cmd, timeout=APP_TIMEOUT):
    """Run cmd in its own process group; kill the group on time-out
    (timeout in seconds, times TIMEOUT_MULTIPLIER). Raises
    SanitizerFinding if the app printed a sanitizer report."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout * TIMEOUT_MULTIPLIER)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    return check_sanitizers(Result(cmd, proc.returncode,
                                   out.decode('utf-8', 'replace'),
                                   err.decode('utf-8', 'replace'),
                                   timed_out))


# The apps' one error line for a bad command line, file or line
# (docs/getting_started.md#running-the-apps): "<prog>: <flag>: <what>" or
# "<prog>: <file>:<line>: <what>"; the usage follows, exit status 2. The
# head is one word (a flag, file:line, or the stray word itself).
USAGE_ERROR_RE = re.compile(r'\S+?: \S')


def usage_error_problems(res, prog, want):
    """What is wrong with @res, a run refused for a bad command line or
    file: exit status 2, one error line "<prog>: ..." on stderr (warnings
    aside) in the one format, its message after "<prog>: " matching the
    regex @want from its start, then the usage on stderr."""
    why = []
    if res.timed_out or res.crashed or res.rc != 2:
        why.append('%s, want exit status 2' % res.describe())
    lines = res.stderr.splitlines()
    errs = [i for i, l in enumerate(lines) if l.startswith(prog + ': ') and
            not l.startswith(prog + ': warning: ')]
    if len(errs) != 1:
        return why + ['%d error lines "%s: ...", want one' % (len(errs),
                                                              prog)]
    msg = lines[errs[0]][len(prog) + 2:]
    if not USAGE_ERROR_RE.match(msg):
        why.append('error line %r is not "<flag>: <what>" nor '
                   '"<file>:<line>: <what>"' % msg)
    if not re.match(want, msg):
        why.append('error line %r does not match /%s/' % (msg, want))
    if not any(l.startswith('Usage: ' + prog) for l in lines[errs[0]:]):
        why.append('no usage after the error line on stderr')
    return why


def interrupt(proc, timeout=60):
    """SIGINT to a running Popen @proc (started with start_new_session),
    its exit status; its group killed when it has not exited after
    @timeout seconds."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=timeout * TIMEOUT_MULTIPLIER)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.wait()


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {'_error': str(e)}


def read_tx(path):
    """Records of a tx pcap as [(data, orig_len)]; a missing file (port not
    started) is an empty list."""
    if not os.path.exists(path):
        return []
    return [(r.data, r.orig_len) for r in pcaplib.read(path)]


def leak_problems(js):
    """The contract's leak block: every counter 0 and ok true."""
    leak = js.get('leak')
    if not isinstance(leak, dict):
        return ['JSON has no "leak" object']
    probs = []
    for k in ('mbufs_out', 'frags_out', 'chunks_in_use'):
        if leak.get(k) != 0:
            probs.append('leak.%s = %r' % (k, leak.get(k)))
    if leak.get('ok') is not True:
        probs.append('leak.ok = %r' % leak.get('ok'))
    return probs


def run_json(app, work, vdevs, args, lcores='0'):
    """Run `app` on `vdevs` (eal_args) with --json into the Workdir `work`:
    run()'s Result, the JSON read back (load_json) as .json."""
    jpath = work.file('run-%d.json' % len(work.prefixes))
    cmd = ([app] + eal_args(work.new_prefix(), vdevs, lcores) +
           ['--', '--json', jpath] + args)
    res = run(cmd, timeout=120)
    res.json = load_json(jpath)
    return res


def run_problems(res, what, status=0):
    """A run_json() run's problems, each starting with `what`: its exit
    status not `status`, no JSON, a leak block not clean."""
    probs = []
    if res.timed_out or res.rc != status:
        probs.append('%s: %s, want exit status %d\n%s'
                     % (what, res.describe(), status, res.tail()))
    if '_error' in res.json:
        return probs + ['%s: no JSON: %s' % (what, res.json['_error'])]
    return probs + ['%s: %s' % (what, p) for p in leak_problems(res.json)]


def run_cases(names, tag, run_one, keep=False):
    """Run each case in `names` in a Workdir of its own: run_one(name,
    work) returns its problems; log PASS or FAIL with them. Returns the
    exit status: 0 when every case passed, else 1."""
    failed = 0
    for name in names:
        with Workdir('%s-%s' % (tag, name), keep) as work:
            try:
                probs = run_one(name, work)
            except SanitizerFinding as e:
                probs = ['sanitizer report (logged above): %s' % e]
        if probs:
            failed += 1
            log('FAIL %s:' % name)
            for p in probs:
                log('  - ' + p)
        else:
            log('PASS %s' % name)
    return 1 if failed else 0


def case_arguments(ap, cases, apps=()):
    """Add --case NAME|all, --list, --keep and --APP for each of `apps`
    ('fwd', 'drop', 'gen': the path of npool-APP) to the parser `ap`;
    parse; require each app (require_app). Returns (arguments, the case
    names to run), names None after --list printed them."""
    ap.add_argument('--case', choices=sorted(cases) + ['all'])
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--keep', action='store_true')
    for app in apps:
        ap.add_argument('--' + app)
    a = ap.parse_args()
    if a.list:
        print('\n'.join(cases))
        return a, None
    if not a.case:
        ap.error('--case is required')
    for app in apps:
        require_app(getattr(a, app), 'npool-' + app)
    return a, list(cases) if a.case == 'all' else [a.case]


def run_netns(a, make_run, tags, prefix_tag):
    """main() of a test between network namespaces, after its arguments
    @a (a.app: npool-fwd, None for a run without it): skip unless root,
    remove what runs that died left (namespaces <tag><pid>-* of each of
    @tags, EAL folders <prefix_tag><pid>), then make_run(a).run() (an
    object with run(), fail(msg), cleanup(), probs and fwd, an
    netns.AppProcess or None), an exception failing it, cleanup()
    whatever happens. Returns the exit status: 0 when it has no problem,
    else 1."""
    if a.app is not None:
        require_app(a.app, 'npool-fwd')
    if os.geteuid() != 0:
        skip('needs root (network namespaces, veth, AF_PACKET)')
    for tag in tags:
        for pid in netns.sweep_stale(tag):
            for d in runtime_dirs(prefix_tag + pid):
                shutil.rmtree(d, ignore_errors=True)
    r = make_run(a)
    try:
        r.run()
    except (RuntimeError, netns.NetnsError, OSError, ValueError,
            subprocess.TimeoutExpired) as e:
        r.fail('%s: %s' % (type(e).__name__, e))
        if r.fwd is not None:
            log(r.fwd.tail())
    finally:
        r.cleanup()
    log('FAIL (%d problems)' % len(r.probs) if r.probs else 'PASS')
    return 1 if r.probs else 0
