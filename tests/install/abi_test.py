#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A shared library of npool exports exactly its version script.

Checks, on the built library (libnpool.so, libnpool_rx.so):
  - every symbol the map lists is exported, under the map's version node,
    and nothing else is (a function made non-static by mistake, a symbol
    of a static library pulled in);
  - every exported symbol is declared in an installed header (meson's
    npool_headers: lib/npool and drivers), so that nothing exported is
    undocumented;
  - every function the installed headers declare outside an inline body is
    exported (a declared, documented call that a user cannot link).

  - with --no-needed LIB (repeatable), that the library does not link
    that shared library: libnpool, the allocator, needs no librte_ethdev
    (the layer that does is libnpool_rx).

Usage: abi_test.py [--no-needed SONAME_PREFIX]... LIB_SO MAP HEADER...
"""
import re
import subprocess
import sys


def map_symbols(path):
    text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    m = re.search(r'([\w.]+)\s*\{\s*global:(.*?)local:\s*\*;\s*\};', text,
                  re.S)
    if m is None:
        sys.exit('FAIL: %s: no "NODE { global: ... local: *; };"' % path)
    return m.group(1), set(re.findall(r'(\w+)\s*;', m.group(2)))


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


def declared(headers):
    """Names declared at file scope in the headers: prototypes and extern
    variables (not static inline definitions)."""
    names = set()
    for h in headers:
        text = open(h).read()
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        text = re.sub(r'//[^\n]*', '', text)
        # Preprocessor lines with their continuation lines (a macro's
        # body is no declaration).
        text = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', '', text, flags=re.M)
        text = text.replace('extern "C" {', '')
        # Drop every brace body (inline functions, structs, macros' do {}).
        while True:
            t = re.sub(r'\{[^{}]*\}', ';', text)
            if t == text:
                break
            text = t
        for stmt in text.split(';'):
            stmt = ' '.join(stmt.split())
            if not stmt or stmt.startswith(('typedef', 'static')):
                continue
            m = re.search(r'(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*'
                          r'(__rte_\w+\s*)*$', stmt)
            if m:
                names.add(m.group(1))
                continue
            m = re.match(r'extern\s.*?(\w+)\s*(\[[^\]]*\])?$', stmt)
            if m:
                names.add(m.group(1))
    return names


def needed(lib):
    out = subprocess.run(['readelf', '-d', lib], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)


def main():
    args = sys.argv[1:]
    forbidden = []
    while len(args) >= 2 and args[0] == '--no-needed':
        forbidden.append(args[1])
        args = args[2:]
    lib, mapfile, headers = args[0], args[1], args[2:]
    node, listed = map_symbols(mapfile)
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
        if s != node:
            bad.append('%s: exported, not in the map' % s)
    for s in sorted(listed & set(syms)):
        if syms[s] != node:
            bad.append('%s: version %r, not %s' % (s, syms[s], node))
    for s in sorted(set(syms) - decl - {node}):
        bad.append('%s: exported, declared in no installed header' % s)
    for s in sorted(decl - set(syms)):
        if s.startswith(('npool_', 'rte_')):
            bad.append('%s: declared in a header, not exported' % s)
    print('%s: %d symbols exported under %s, %d declared in %d headers; '
          'NEEDED: %s' % (lib.split('/')[-1], len(syms), node, len(decl),
                          len(headers), ' '.join(libs)))
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
