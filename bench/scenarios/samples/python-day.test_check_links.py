"""scripts/check_links.py on small folders of pages that each test writes."""
import pytest

from scripts.check_links import main

GUIDE = '# Guide\n\n## Install\n\nThen see [usage](#usage).\n\n## Usage\n\nBack to [install](#install).\n'


@pytest.fixture
def page(tmp_path, monkeypatch):
    """Writes a page into docs/ under a fresh directory, which is the current one while the test runs."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'docs').mkdir()

    def write(name, text):
        (tmp_path / 'docs' / name).write_text(text, encoding='utf-8')

    write('guide.md', GUIDE)
    return write


def check(capsys, *args):
    """The checker's exit code, its output lines and what it wrote to stderr."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_good_links(page, capsys):
    assert check(capsys, 'docs') == (0, ['0 broken link(s)'], '')


@pytest.mark.parametrize('link, problems', [
    pytest.param('[x](guide.md#usage)', [], id='page-and-anchor'),
    pytest.param('[x](guide.md)', [], id='page-only'),
    pytest.param('[x](#index)', [], id='own-anchor'),
    pytest.param('[x](guide.md#Usage)', ['docs/index.md:3: no #Usage in docs/guide.md (did you mean #usage?)'], id='case'),
    pytest.param('[x](guide.md#instal)', ['docs/index.md:3: no #instal in docs/guide.md (did you mean #install?)'], id='typo'),
    pytest.param('[x](guide.md#nothing-like-it)', ['docs/index.md:3: no #nothing-like-it in docs/guide.md'], id='unknown'),
    pytest.param('[x](setup.md#linux)', ['docs/index.md:3: no page docs/setup.md'], id='missing-page'),
])
def test_links(page, capsys, link, problems):
    page('index.md', f'# Index\n\n{link}\n')
    code, out, err = check(capsys, 'docs')
    assert out == problems + [f'{len(problems)} broken link(s)']
    assert code == (1 if problems else 0)


def test_ids_from_attr_list(page, capsys):
    page('api.md', '# API {#api}\n\nLimits apply.\n{: #limits }\n\nSee [the API](#api) and [its limits](#limits).\n')
    assert check(capsys, 'docs')[0] == 0


def test_links_in_code_are_not_checked(page, capsys):
    page('code.md', '# Code\n\nWrite `[x](#nowhere)` for a link.\n\n```\n[y](#nowhere)\n```\n')
    assert check(capsys, 'docs') == (0, ['0 broken link(s)'], '')


def test_usage(capsys):
    code, out, err = check(capsys)
    assert (code, out) == (2, [])
    assert err.startswith('Usage: python3 scripts/check_links.py')
