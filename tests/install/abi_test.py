#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A shared library of npool exports exactly its version script, and only
the API's headers are installed.

Checks, on the built library (libnpool.so, libnpool_rx.so):
  - every symbol the map lists is exported, under the map's version node
    that lists it (its version in the dynamic symbol table), and nothing
    else is (a function made non-static by mistake, a symbol of a static
    library pulled in);
  - the map's nodes are, as in DPDK, a stable one (the API), at most an
    EXPERIMENTAL one and at most an INTERNAL one;
  - every exported symbol is declared, with a doxygen comment, in an
    installed header (meson's npool_headers, npool_indirect_headers and
    npool_internal_headers: lib/npool and drivers), marked as its node
    says: a stable symbol with neither mark, an EXPERIMENTAL one with
    __rte_experimental, an INTERNAL one with __rte_internal, so that a
    program calling one of those fails to compile unless it defines
    ALLOW_EXPERIMENTAL_API or ALLOW_INTERNAL_API (DPDK's rte_compat.h);
  - no installed header uses an EXPERIMENTAL or INTERNAL symbol outside
    its declaration: no inline function or macro of the API calls one
    (a program using the stable API would need the opt-in too);
  - no exported symbol is named _pvt (library-private names stay local);
  - every function the installed headers declare outside an inline body is
    exported (a declared, documented call that a user cannot link).

  - with --no-needed LIB (repeatable), that the library does not link
    that shared library: libnpool, the allocator, needs no librte_ethdev
    (the layer that does is libnpool_rx).

Usage: abi_test.py [--no-needed SONAME_PREFIX]... LIB_SO MAP HEADER...

With --installed BUILD, checks what `meson install` of BUILD would install
(meson introspect --installed) instead:
  - every installed header is a public, an indirect or an internal one
    (__rte_internal declarations for other parts of npool), or the
    generated npool_build_config.h;
  - no private header is installed: a header in the folder of an
    installed one that is none of those;
  - every header an installed header includes ("...") is installed, so
    that the public inlines compile from the install alone.

Usage: abi_test.py --installed BUILD --public H... --indirect H...
                   [--internal H...]
"""
import json
import os
import re
import subprocess
import sys


INTERNAL = 'INTERNAL'
EXPERIMENTAL = 'EXPERIMENTAL'
# The mark each node's declarations carry (DPDK's rte_compat.h).
MARKS = {EXPERIMENTAL: '__rte_experimental', INTERNAL: '__rte_internal'}


def map_symbols(path):
    """{symbol: version node} of a version script; the stable node's name.
    """
    text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    nodes = re.findall(r'([\w.]+)\s*\{\s*global:(.*?)\}\s*[\w.]*\s*;',
                       text, re.S)
    stable = [n for n, _ in nodes if n not in MARKS]
    names = [n for n, _ in nodes]
    if len(stable) != 1 or 'local: *;' not in text.replace('\t', ' ') or \
            any(names.count(n) > 1 for n in MARKS):
        sys.exit('FAIL: %s: want one stable node "NODE { global: ... '
                 'local: *; };", at most an EXPERIMENTAL and an INTERNAL '
                 'one' % path)
    syms = {}
    for node, body in nodes:
        body = body.split('local:')[0]
        for sym in re.findall(r'(\w+)\s*;', body):
            syms[sym] = node
    return stable[0], syms


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', '--with-symbol-versions',
                          lib], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[1] not in 'TDBRVW':
            continue
        name, _, ver = parts[2].partition('@')
        syms[name] = ver.lstrip('@')
    return syms


def strip_comments(text, doc_marker=None):
    """Text without comments; doc comments (/** ... */) become
    doc_marker when one is given."""
    def repl(m):
        return ' %s ' % doc_marker if doc_marker and \
            m.group(0).startswith('/**') else ' '
    text = re.sub(r'/\*.*?\*/', repl, text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


DOC = '@DOC@'


def declared(headers):
    """{name: (documented, mark)} of what the headers declare at file
    scope: prototypes and extern variables (not static inline
    definitions); mark is the node its __rte_ mark names (EXPERIMENTAL,
    INTERNAL), or None."""
    names = {}
    for h in headers:
        text = strip_comments(open(h).read(), DOC)
        # Preprocessor lines with their continuation lines (a macro's
        # body is no declaration; a doc comment before one is its own).
        text = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', ';', text,
                      flags=re.M)
        text = text.replace('extern "C" {', ';')
        # Drop every brace body (inline functions, structs, macros' do {}).
        while True:
            t = re.sub(r'\{[^{}]*\}', ';', text)
            if t == text:
                break
            text = t
        for stmt in text.split(';'):
            stmt = ' '.join(stmt.split())
            doc = DOC in stmt
            stmt = stmt.replace(DOC, '').strip()
            if not stmt or stmt.startswith(('typedef', 'static')):
                continue
            mark = next((n for n, m in MARKS.items()
                         if re.search(r'\b%s\b' % m, stmt)), None)
            m = re.search(r'(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*'
                          r'(__rte_\w+\s*)*$', stmt)
            if m:
                names[m.group(1)] = (doc, mark)
                continue
            m = re.match(r'extern\s.*?(\w+)\s*(\[[^\]]*\])?$', stmt)
            if m:
                names[m.group(1)] = (doc, mark)
    return names


def marked_uses(headers, nodes):
    """['header: symbol'] for each use of an EXPERIMENTAL or INTERNAL
    symbol in an installed header outside its own marked declaration."""
    bad = []
    for h in headers:
        text = strip_comments(open(h).read())
        for mark in MARKS.values():
            text = re.sub(mark + r'[^;{}]*;', ';', text)
        for sym, node in sorted(nodes.items()):
            if node in MARKS and re.search(r'\b%s\b' % re.escape(sym),
                                           text):
                bad.append('%s: uses %s %s (an inline or macro of the '
                           'API must call stable API only)' % (
                               os.path.basename(h), node, sym))
    return bad


def needed(lib):
    out = subprocess.run(['readelf', '-d', lib], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)


def includes(path):
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(),
                      re.M)


def installed_main(args):
    build, public, indirect, internal, cur = args[0], [], [], [], None
    for a in args[1:]:
        if a in ('--public', '--indirect', '--internal'):
            cur = {'--public': public, '--indirect': indirect,
                   '--internal': internal}[a]
        elif cur is None:
            sys.exit('usage: abi_test.py --installed BUILD --public H... '
                     '--indirect H... [--internal H...]')
        else:
            cur.append(os.path.abspath(a))
    out = subprocess.run(['meson', 'introspect', build, '--installed'],
                         check=True, capture_output=True, text=True).stdout
    inst = {src: dst for src, dst in json.loads(out).items()
            if dst.endswith('.h')}
    names = {os.path.basename(d) for d in inst.values()}
    listed = public + indirect + internal
    allowed = {os.path.basename(h) for h in listed}
    allowed.add('npool_build_config.h')
    bad = []
    for src, dst in sorted(inst.items()):
        if os.path.basename(dst) not in allowed:
            bad.append('%s installed: not public, indirect or internal' %
                       dst)
    folders = {os.path.dirname(h) for h in listed}
    private = sorted(os.path.join(d, f) for d in folders
                     for f in os.listdir(d)
                     if f.endswith('.h') and os.path.join(d, f) not in
                     listed)
    for h in private:
        if os.path.abspath(h) in map(os.path.abspath, inst):
            bad.append('%s: private, installed' % h)
    for src in sorted(inst):
        if not os.path.exists(src):
            continue
        for inc in includes(src):
            if inc not in names:
                bad.append('%s includes "%s", which is not installed' % (
                    os.path.basename(src), inc))
    print('%d headers installed (%d public, %d indirect, %d internal), %d '
          'private not installed: %s' % (
              len(inst), len(public), len(indirect), len(internal),
              len(private), ' '.join(os.path.basename(h) for h in private)))
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


def main():
    args = sys.argv[1:]
    forbidden = []
    while len(args) >= 2 and args[0] == '--no-needed':
        forbidden.append(args[1])
        args = args[2:]
    if args and args[0] == '--installed':
        return installed_main(args[1:])
    lib, mapfile, headers = args[0], args[1], args[2:]
    node, nodes = map_symbols(mapfile)
    listed = set(nodes)
    syms = exported(lib)
    decl = declared(headers)
    bad = []
    libs = needed(lib)
    for f in forbidden:
        for n in libs:
            if n.startswith(f):
                bad.append('links %s (NEEDED): this layer must not' % n)
    for s in sorted(listed - set(syms)):
        bad.append('%s: in the map, not exported' % s)
    for s in sorted(set(syms) - listed):
        if s not in (node, INTERNAL, EXPERIMENTAL):
            bad.append('%s: exported, not in the map' % s)
    for s in sorted(listed & set(syms)):
        if syms[s] != nodes[s]:
            bad.append('%s: version %r, not %s' % (s, syms[s], nodes[s]))
    for s in sorted(listed):
        if s.endswith('_pvt'):
            bad.append('%s: exported, named _pvt (private names stay '
                       'local)' % s)
    for s in sorted(set(syms) - set(decl) - {node, INTERNAL, EXPERIMENTAL}):
        bad.append('%s: exported, declared in no installed header' % s)
    for s in sorted(set(syms) & set(decl)):
        doc, mark = decl[s]
        want = nodes.get(s) if nodes.get(s) in MARKS else None
        if mark != want:
            bad.append('%s: in %s, declared %s' % (
                s, nodes.get(s), MARKS[mark] if mark else
                'without ' + MARKS[want]))
        if not doc:
            bad.append('%s: declared without a doxygen comment' % s)
    for s in sorted(set(decl) - set(syms)):
        if s.startswith(('npool_', 'rte_')):
            bad.append('%s: declared in a header, not exported' % s)
    bad += marked_uses(headers, nodes)
    per = ', '.join('%d under %s' % (sum(1 for v in nodes.values()
                                         if v == n), n)
                    for n in (node, EXPERIMENTAL, INTERNAL))
    print('%s: %d symbols exported, %s; %d declared in %d headers; '
          'NEEDED: %s' % (lib.split('/')[-1], len(syms), per, len(decl),
                          len(headers), ' '.join(libs)))
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
