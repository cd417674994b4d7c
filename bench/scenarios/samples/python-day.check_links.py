#!/usr/bin/env python3
"""Reports links to anchors that do not exist, in folders of Markdown pages.

Usage: python3 scripts/check_links.py FOLDER...

Each page is rendered with the extensions the site uses. A link `[text](#id)` must name an id of the
same page, and `[text](page.md#id)` an id of that page. Prints `file:line: message` for each broken
link and exits with 1 when there is one.
"""
import re
import sys
from pathlib import Path

import markdown

EXTENSIONS = [
    'markdown.extensions.toc',
    'markdown.extensions.tables',
    'markdown.extensions.fenced_code',
    'markdown.extensions.attr_list',
]
# [text](#id) and [text](page.md#id): the page (maybe empty) and the id.
LINK_RE = re.compile(r'\]\(([^)\s#]*)#([^)\s]+)\)')


def heading_ids(md, text):
    """The ids of a page's headings, from the toc extension's tokens."""
    md.reset()
    md.convert(text)
    ids = set()

    def walk(tokens):
        for token in tokens:
            ids.add(token['id'])
            walk(token['children'])

    walk(md.toc_tokens)
    return ids


def check(folders):
    md = markdown.Markdown(extensions=EXTENSIONS)
    pages = {}
    for folder in folders:
        for path in sorted(Path(folder).rglob('*.md')):
            pages[path] = path.read_text(encoding='utf-8')
    anchors = {path: heading_ids(md, text) for path, text in pages.items()}
    problems = []
    for path, text in pages.items():
        for number, line in enumerate(text.splitlines(), start=1):
            for target, anchor in LINK_RE.findall(line):
                page = path.parent / target if target else path
                if anchor not in anchors[page]:
                    problems.append(f'{path}:{number}: no #{anchor} in {page}')
    return problems


def main(argv):
    if not argv:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    problems = check(argv)
    for problem in problems:
        print(problem)
    print(f'{len(problems)} broken link(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
