#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The docs hold together: no dead relative link in README.md or docs/, and
each app page (docs/apps/<app>.md) names exactly the options its --help
lists.

- A relative link [text](path#anchor) must name a file or folder of the
  tree, and an anchor in a markdown file must be one of its headings
  (GitHub's slugs: lower case, punctuation dropped, spaces to '-').
- Every long option a page names (`--xxx`) must appear in `<app> -- --help`
  (the app's own options, those it refuses included) or in EAL's `<app>
  --help`; every option `<app> -- --help` lists must be named on the page.

  doc_check.py --root SRC --build BUILD
Exit 0 pass, 1 fail, 77 skipped (an app not built).
"""

import argparse
import os
import re
import subprocess
import sys

APPS = {'npool-fwd': 'fwd', 'npool-drop': 'drop', 'npool-gen': 'gen'}
LINK = re.compile(r'(?<!!)\[[^\]]*\]\(([^)\s]+)\)')
LONG = re.compile(r'(?<![\w/.-])--[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*')


def md_files(root):
    files = [os.path.join(root, 'README.md')]
    for top, dirs, names in os.walk(os.path.join(root, 'docs')):
        dirs.sort()
        files += [os.path.join(top, n) for n in sorted(names)
                  if n.endswith('.md')]
    return files


def strip_code_blocks(text):
    """Fenced blocks hold commands and output, not links."""
    return re.sub(r'^```.*?^```', '', text, flags=re.S | re.M)


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    with open(path) as f:
        text = strip_code_blocks(f.read())
    return {slug(h) for h in re.findall(r'^#+\s+(.*)$', text, re.M)}


def dead_links(root):
    probs = []
    for path in md_files(root):
        with open(path) as f:
            text = strip_code_blocks(f.read())
        rel = os.path.relpath(path, root)
        for target in LINK.findall(text):
            if re.match(r'[a-z]+:', target):
                continue            # http:, https:, mailto:
            file_part, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path),
                                                 file_part)) \
                if file_part else path
            if not os.path.exists(dest):
                probs.append('%s: dead link %s' % (rel, target))
            elif anchor and dest.endswith('.md') and \
                    anchor not in anchors(dest):
                probs.append('%s: link %s: no heading "#%s" in %s' % (
                    rel, target, anchor, os.path.relpath(dest, root)))
    return probs


def expand(help_text):
    """--event-vector[-size|-tmo] lists --event-vector-size too."""
    out = set(LONG.findall(help_text))
    for base, alts in re.findall(r'(--[a-z][a-z0-9_-]*)\[([^\]]+)\]',
                                 help_text):
        out.update(base + a for a in alts.split('|'))
    return out


def listed(help_text):
    """The options a --help lists: those that start one of its lines."""
    return set(re.findall(r'^\s+(--[a-z][a-z0-9_-]*|-[A-Za-z])\b',
                          help_text, re.M))


def app_help(app, build):
    exe = os.path.join(build, 'apps', APPS[app], app)
    own = subprocess.run([exe, '--', '--help'], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=30)
    eal = subprocess.run([exe, '--help'], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=30)
    return own.stdout.decode(), eal.stdout.decode()


def option_problems(root, build):
    probs = []
    for app in sorted(APPS):
        page = os.path.join(root, 'docs', 'apps', app + '.md')
        rel = os.path.relpath(page, root)
        if not os.path.exists(page):
            probs.append('%s: missing' % rel)
            continue
        with open(page) as f:
            text = f.read()
        own, eal = app_help(app, build)
        known = expand(own) | expand(eal)
        for opt in sorted(set(LONG.findall(text))):
            if opt not in known:
                probs.append('%s names %s, which `%s -- --help` does not '
                             'list' % (rel, opt, app))
        named = set(LONG.findall(text)) | \
            set(re.findall(r'(?<![\w-])(-[A-Za-z])\b', text))
        for opt in sorted(listed(own)):
            if opt not in named:
                probs.append('%s: `%s -- --help` lists %s, the page does '
                             'not name it' % (rel, app, opt))
    return probs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', required=True)
    ap.add_argument('--build', required=True)
    a = ap.parse_args()
    for app, d in APPS.items():
        if not os.access(os.path.join(a.build, 'apps', d, app), os.X_OK):
            print('SKIP: %s not built' % app)
            return 77
    probs = dead_links(a.root) + option_problems(a.root, a.build)
    for p in probs:
        print('FAIL: ' + p)
    if not probs:
        print('PASS: links of %d files, options of %d app pages' % (
            len(md_files(a.root)), len(APPS)))
    return 1 if probs else 0


if __name__ == '__main__':
    sys.exit(main())
