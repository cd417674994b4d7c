"""The tables extension: cell splitting, alignment from the separator row, escaped pipes, code spans."""
import pytest

SEPARATORS = {'left': ':---', 'center': ':---:', 'right': '---:', 'none': '---'}


def table_html(header, rows, aligns, attribute=False):
    """The HTML the extension writes for a table: one line per tag, alignment on every cell of a column."""
    def cell(tag, text, align):
        if align is None:
            return f'<{tag}>{text}</{tag}>\n'
        style = f' align="{align}"' if attribute else f' style="text-align: {align};"'
        return f'<{tag}{style}>{text}</{tag}>\n'

    def row(tag, cells):
        return '<tr>\n' + ''.join(cell(tag, text, align) for text, align in zip(cells, aligns)) + '</tr>\n'

    body = ''.join(row('td', r) for r in rows)
    return f'<table>\n<thead>\n{row("th", header)}</thead>\n<tbody>\n{body}</tbody>\n</table>'


def layout(style, cells):
    """One table row in the given style: padded `| a | b |`, compact `|a|b|`, or borderless `a | b`."""
    if style == 'padded':
        return '| ' + ' | '.join(cells) + ' |'
    if style == 'compact':
        return '|' + '|'.join(cells) + '|'
    return ' | '.join(cells)


@pytest.mark.parametrize('style', ['padded', 'compact', 'borderless'])
@pytest.mark.parametrize('second', list(SEPARATORS))
@pytest.mark.parametrize('first', ['left', 'none'])
def test_alignment(render, style, first, second):
    aligns = [None if a == 'none' else a for a in (first, second)]
    source = '\n'.join([
        layout(style, ['Name', 'Count']),
        layout(style, [SEPARATORS[first], SEPARATORS[second]]),
        layout(style, ['apple', '3']),
        layout(style, ['river', '12']),
    ])
    assert render(source, 'tables') == table_html(['Name', 'Count'], [['apple', '3'], ['river', '12']], aligns)


@pytest.mark.parametrize('align', ['left', 'center', 'right'])
def test_align_attribute(render, align):
    source = f'| a | b |\n| --- | {SEPARATORS[align]} |\n| 1 | 2 |'
    html = render(source, 'tables', tables={'use_align_attribute': True})
    assert html == table_html(['a', 'b'], [['1', '2']], [None, align], attribute=True)


@pytest.mark.parametrize('source, cells', [
    pytest.param('| `x|y` | z |', ['<code>x|y</code>', 'z'], id='pipe-in-code'),
    pytest.param('| a \\| b | c |', ['a | b', 'c'], id='escaped-pipe'),
    pytest.param('| ``a|`b`` | c |', ['<code>a|`b</code>', 'c'], id='pipe-in-double-backticks'),
    pytest.param('| *em* | [link](/x) |', ['<em>em</em>', '<a href="/x">link</a>'], id='inline-markup'),
    pytest.param('| a |', ['a', ''], id='missing-cell'),
    pytest.param('| a | b | c |', ['a', 'b'], id='extra-cell-dropped'),
])
def test_cells(render, source, cells):
    html = render('| h1 | h2 |\n| --- | --- |\n' + source, 'tables')
    assert html == table_html(['h1', 'h2'], [cells], [None, None])


def test_header_only_table_gets_an_empty_row(render):
    assert render('| a | b |\n| --- | --- |', 'tables') == table_html(['a', 'b'], [['', '']], [None, None])


def test_single_column_needs_pipes(render):
    assert render('| a |\n| --- |\n| 1 |', 'tables') == table_html(['a'], [['1']], [None])


@pytest.mark.parametrize('source', [
    pytest.param('a | b\nnot a separator', id='bad-separator'),
    pytest.param('| a | b |\n| --- |', id='separator-too-short'),
    pytest.param('just text', id='no-pipes'),
])
def test_not_a_table(render, source):
    assert '<table>' not in render(source, 'tables')
