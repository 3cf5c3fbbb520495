#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which kmod/ file calls which, and the circles in that graph.

  scripts/callgraph.py [--edges] [--allow A.c:B.c ...]

A file calls another when it calls a non-static function defined there
(comments and strings are ignored; inline functions in headers belong to
no file).  Prints every strongly connected set of files; exits 1 if one
is not made of allowed pairs: scripts/style.sh allows a connection's
lifetime pair, conn.c and conn_send.c (docs/design.md).
"""
import glob
import os
import re
import sys

DEF = re.compile(r'^(?!static)[a-z][^\n;]*?\b(ecp_\w+)\([^;]*?\)\s*\n\{', re.M)
CALL = re.compile(r'\b(ecp_\w+)\s*\(')


def strip(src):
    src = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    src = re.sub(r'//[^\n]*', ' ', src)
    return re.sub(r'"(\\.|[^"\\])*"', '""', src)


def graph(top):
    files = [f for f in glob.glob(os.path.join(top, 'kmod', '*.c'))
             if not f.endswith('_test.c') and 'kunit' not in f]
    text = {os.path.basename(f): strip(open(f).read()) for f in files}
    defs = {}
    for name, src in text.items():
        for m in DEF.finditer(src):
            defs[m.group(1)] = name
    edges = {name: set() for name in text}
    for name, src in text.items():
        for fn in CALL.findall(src):
            other = defs.get(fn)
            if other and other != name:
                edges[name].add(other)
    return edges


def circles(edges):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    allowed = set()
    while '--allow' in args:
        i = args.index('--allow')
        allowed.add(tuple(sorted(args[i + 1].split(':'))))
        del args[i:i + 2]
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    edges = graph(top)
    if '--edges' in args:
        for f in sorted(edges):
            print(f, '->', ' '.join(sorted(edges[f])))
    bad = 0
    for comp in circles(edges):
        print('circle:', ' '.join(comp))
        # A circle made of allowed pairs only: every edge inside it is one.
        for a in comp:
            for b in edges[a]:
                if b in comp and tuple(sorted((a, b))) not in allowed:
                    bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
