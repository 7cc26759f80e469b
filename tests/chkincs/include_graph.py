#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include graph of the tree holds its layers: no circle, no arrow back
up, each function declared in the header of the file that defines it.

A module is a source file with its headers: dir/NAME.c, dir/NAME.h and
dir/NAME_pvt.h. An arrow runs from module A to module B when a file of A
includes ("...") a header of B. Checked in CHECKED (lib/, drivers/ and
apps/):

- no circle: no module reaches itself again by its arrows (CIRCLES:
  lib/, drivers/ and apps/);
- each function or variable a header of NAME declares (not static) is
  defined in NAME.c, which includes NAME.h, and a .c file declares
  nothing it does not define (a prototype or an extern in a .c file names
  what another file defines: that file's header is where it belongs);
- no file of lib/ includes the umbrella npool.h (UMBRELLAS);
- the layers (LAYERS): a folder includes only from the folders below it,
  npool-fwd's control plane (apps/fwd/ctl) reaches its pipeline
  (apps/fwd/core) only through the tables' headers, and whatever is
  above lib/ and drivers/ takes only their installed API (the headers
  and internal_headers of lib/npool/meson.build, npool_rx_headers of
  drivers/net/meson.build).

  include_graph.py [--root SRC] [--scope FOLDER ...] [--graph]
--scope checks other folders than CHECKED (--scope apps/: apps/ alone); --graph prints the module graph, floor by floor, and exits 0.
Exit 0 pass, 1 fail.
"""

import argparse
import os
import re
import sys

CHECKED = ('lib/', 'drivers/', 'apps/')

# Where a circle of modules fails: everywhere checked. In lib/ the inline
# fast paths' out-of-line halves are defined in the module whose header
# declares them (npool_napi_consume_other() in npool_pkt_consume.c, not
# beside the defer ring it feeds), each debug hook beside the structures
# it checks (the fragment maps in npool_arena.c, the napi caches' owners
# in npool_core.c, the heads' marks in npool_head_cache.c, the poisoning
# of free heads in rte_mempool_npool.c; npool_debug.h holds only the
# macros), and the counters the instances embed sit below both
# (npool_stats_fields.h), read out above them (npool_stats.c).
CIRCLES = ('lib/', 'drivers/', 'apps/')

# (folder, the folders it may include from; a folder's own files aside).
# A folder is a file's longest matching prefix.
LAYERS = [
    ('lib/', []),
    ('drivers/', ['lib/']),
    ('apps/common/', ['lib/', 'drivers/']),
    ('apps/fwd/core/', ['lib/', 'drivers/', 'apps/common/']),
    ('apps/fwd/ctl/', ['lib/', 'drivers/', 'apps/common/',
                       'apps/fwd/core/']),
    ('apps/fwd/', ['lib/', 'drivers/', 'apps/common/', 'apps/fwd/core/',
                   'apps/fwd/ctl/']),
    ('apps/drop/', ['lib/', 'drivers/', 'apps/common/']),
    ('apps/gen/', ['lib/', 'drivers/', 'apps/common/']),
]

# The only headers of one folder another may include (a narrow door).
DOORS = {
    ('apps/fwd/ctl/', 'apps/fwd/core/'):
        {'fwd_tables.h', 'fwd_nh.h', 'fwd_ctlmsg.h'},
}

# Headers that only include others, for programs, and the folder whose
# files may not include them (each includes what it uses).
UMBRELLAS = {'lib/npool/npool.h': 'lib/'}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
IDENT = re.compile(r'[A-Za-z_]\w*')


def source_files(root):
    out = []
    for top in ('lib', 'drivers', 'apps'):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(('.c', '.h')):
                    out.append(os.path.relpath(os.path.join(d, n), root))
    return out


def module_of(path):
    stem = path.rsplit('.', 1)[0]
    return stem[:-4] if stem.endswith('_pvt') else stem


def layer_of(path):
    best = None
    for folder, _ in LAYERS:
        if path.startswith(folder) and (best is None or
                                        len(folder) > len(best)):
            best = folder
    return best


def installed_api(root):
    """Headers lib/npool and drivers/net install for others to include
    (not the indirect ones, which only their API's inlines include)."""
    api = set()
    for build, names in (('lib/npool/meson.build', ('npool_headers',
                                                     'npool_internal_headers')),
                         ('drivers/net/meson.build', ('npool_rx_headers',))):
        text = open(os.path.join(root, build)).read()
        for var in names:
            for m in re.finditer(var + r'\s*\+?=\s*files\((.*?)\)', text,
                                 re.S):
                api.update(re.findall(r"'([^']+\.h)'", m.group(1)))
    return api


def resolve(name, src, by_name):
    """The tree's file a quoted include names, or None (DPDK's, system)."""
    cands = by_name.get(os.path.basename(name), [])
    if not cands:
        return None
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if here in cands:
        return here
    if len(cands) == 1:
        return cands[0]
    return sorted(cands)[0]


def strip(text):
    """C text without comments, strings, characters and preprocessor
    lines (continued lines included), and without extern "C" braces."""
    text = re.sub(r'#ifdef\s+__cplusplus.*?#endif', '', text, flags=re.S)
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            out.append(' ')
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines, keep, cont = ''.join(out).split('\n'), [], False
    for line in lines:
        pre = cont or line.lstrip().startswith('#')
        cont = pre and line.rstrip().endswith('\\')
        keep.append('' if pre else line)
    return '\n'.join(keep)


def top_level(text):
    """File-scope statements: (text up to ';' or a body's '{', has_body)."""
    out, buf, depth = [], [], 0
    for c in strip(text):
        if depth == 0:
            if c == '{':
                out.append((''.join(buf), True))
                buf = []
                depth = 1
            elif c == ';':
                out.append((''.join(buf), False))
                buf = []
            else:
                buf.append(c)
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
    return out


# Words before a '(' that name no function.
NOT_FUNCS = {'void', 'int', 'char', 'short', 'long', 'unsigned', 'signed',
             'float', 'double', 'const', 'volatile', 'struct', 'union',
             'enum', 'inline', 'extern', 'static', 'return', 'sizeof'}

# A file-scope macro call that defines its first argument (DPDK's log
# types); any other upper-case call at file scope (RTE_INIT(),
# RTE_MEMPOOL_REGISTER_OPS()) declares nothing.
DEFINERS = re.compile(r'^\s*RTE_LOG_REGISTER\w*\s*\(\s*(\w+)')


def declarator(stmt):
    """('func' | 'var', name) of a file-scope declaration (what stands
    before its ';', its body's '{' or its initializer), or None: a type, or
    what a body left behind it ("} __rte_packed_end")."""
    s = ' '.join(stmt.split()).split('=')[0]
    words = IDENT.findall(s)
    if not words or words[0] == 'typedef':
        return None
    # The first name followed by '(' that is no attribute (__attribute__,
    # __rte_aligned()) and no pointer declarator ("(*fn)").
    for m in re.finditer(r'([A-Za-z_]\w*)\s*\((?!\s*\*)', s):
        if not m.group(1).startswith('__') and m.group(1) not in NOT_FUNCS:
            return ('func', m.group(1))
    names = [w for w in IDENT.findall(s.split('[')[0])
             if not w.startswith('__')]
    return ('var', names[-1]) if len(names) >= 2 else None


def decls(path, root):
    """(declared, defined): names a file declares without defining (not
    static) and names it defines (not static), each with its kind."""
    declared, defined = [], set()
    for stmt, body in top_level(open(os.path.join(root, path)).read()):
        m = DEFINERS.match(stmt)
        if m:
            defined.add(m.group(1))
            continue
        if re.match(r'\s*[A-Z][A-Z0-9_]*\s*\(', stmt):
            continue
        words = IDENT.findall(stmt)
        if not words or 'static' in words or 'typedef' in words or \
                words[0] in ('static_assert', '_Static_assert'):
            continue
        d = declarator(stmt)
        if d is None:
            continue
        kind, name = d
        if body:
            if kind == 'func' or '=' in stmt:
                defined.add(name)
        elif kind == 'func' or 'extern' in words:
            declared.append(d)
        elif kind == 'var':
            defined.add(name)
    return declared, defined


def circles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def floors(graph, mods):
    """Floor of each module: 1 + the highest floor it includes from."""
    memo = {}

    def f(v, seen=()):
        if v in memo:
            return memo[v]
        if v in seen:
            return 1
        memo[v] = 1 + max((f(w, seen + (v,)) for w in graph.get(v, ())),
                          default=0)
        return memo[v]
    return {m: f(m) for m in mods}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    ap.add_argument('--scope', nargs='+', default=list(CHECKED))
    ap.add_argument('--graph', action='store_true')
    a = ap.parse_args()
    checked = tuple(a.scope)
    root = os.path.normpath(a.root)
    files = source_files(root)
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    api = installed_api(root)
    graph, why, bad = {}, {}, []
    for f in files:
        text = open(os.path.join(root, f)).read()
        for name in INCLUDE.findall(text):
            g = resolve(name, f, by_name)
            if g is None:
                continue
            a_mod, b_mod = module_of(f), module_of(g)
            if a_mod != b_mod:
                graph.setdefault(a_mod, set()).add(b_mod)
                why.setdefault((a_mod, b_mod), []).append((f, g))
            if not f.startswith(checked):
                continue
            if g in UMBRELLAS and f.startswith(UMBRELLAS[g]):
                bad.append('%s includes %s, the API for programs: include '
                           'what it uses' % (f, g))
            lf, lg = layer_of(f), layer_of(g)
            if lf == lg:
                continue
            allowed = dict(LAYERS)[lf]
            door = DOORS.get((lf, lg))
            if lg not in allowed:
                bad.append('%s includes %s: %s may not include from %s '
                           '(an arrow back up or across)' % (f, g, lf, lg))
            elif door is not None and os.path.basename(g) not in door:
                bad.append('%s includes %s: %s reaches %s only through %s'
                           % (f, g, lf, lg, ', '.join(sorted(door))))
            elif lg in ('lib/', 'drivers/') and \
                    os.path.basename(g) not in api:
                bad.append('%s includes %s: not the installed API of %s'
                           % (f, g, lg))
    mods = sorted({module_of(f) for f in files if f.startswith(checked)})
    if a.graph:
        fl = floors(graph, mods)
        for m in sorted(mods, key=lambda m: (-fl[m], m)):
            print('%2d %s -> %s' % (fl[m], m, ', '.join(
                sorted(w for w in graph.get(m, ()) if w in fl)) or '-'))
        return 0
    for comp in circles(graph):
        if not any(m.startswith(checked) and m.startswith(CIRCLES)
                   for m in comp):
            continue
        bad.append('circle of %d modules: %s' % (len(comp), ' '.join(comp)))
        for x in comp:
            for y in comp:
                for f, g in why.get((x, y), []):
                    bad.append('    %s includes %s' % (f, g))
    defined = {}
    declared = []
    for f in files:
        if not f.startswith(checked):
            continue
        own = f[:-2] + '.h'
        if f.endswith('.c') and own in files and not any(
                resolve(n, f, by_name) == own for n in INCLUDE.findall(
                    open(os.path.join(root, f)).read())):
            bad.append('%s does not include %s, which declares what it '
                       'defines' % (f, own))
        dl, df = decls(f, root)
        if f.endswith('.c'):
            defined[module_of(f)] = df
            for kind, name in dl:
                bad.append('%s declares %s %s: declare it in the header '
                           'of the file that defines it' % (f, kind, name))
        else:
            declared += [(f, kind, name) for kind, name in dl]
    for f, kind, name in declared:
        m = module_of(f)
        if name not in defined.get(m, ()):
            bad.append('%s declares %s %s, which %s.c does not define'
                       % (f, kind, name, m))
    for b in bad:
        print(b)
    print('%d modules in %s, %d arrows between them: %s' % (
        len(mods), ' '.join(checked), sum(len(v) for k, v in graph.items()
                                          if k in mods),
        'FAIL: %d findings' % len(bad) if bad else 'OK'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
