#!/usr/bin/env python3
"""Times rendering a changelog-like page (N releases, each with its Fixed and Added sections), without
and with the toc extension.

Usage: python3 scripts/time_changelog.py [N...]   (default: 1000 2000)
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import markdown  # noqa: E402


def changelog(releases):
    return '\n\n'.join(
        f'## Release {n}\n\n### Fixed\n\n- bug {n}\n\n### Added\n\n- feature {n}' for n in range(releases)
    )


def seconds(text, extensions):
    started = time.perf_counter()
    markdown.markdown(text, extensions=extensions)
    return time.perf_counter() - started


for releases in [int(arg) for arg in sys.argv[1:]] or [1000, 2000]:
    text = changelog(releases)
    print(f'{releases} releases: {seconds(text, []):.2f}s without toc, '
          f'{seconds(text, ["markdown.extensions.toc"]):.2f}s with toc')
