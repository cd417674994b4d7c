"""Block Markdown: headers, paragraphs, lists, quotes, code blocks and rules."""
import pytest

WORDS = ['apple', 'river', 'stone', 'cloud', 'maple', 'ember', 'harbor', 'meadow', 'copper', 'lantern', 'willow', 'quartz']


@pytest.mark.parametrize('level', range(1, 7))
@pytest.mark.parametrize('word', WORDS[:6])
def test_atx_header(render, level, word):
    assert render('#' * level + ' ' + word) == f'<h{level}>{word}</h{level}>'


@pytest.mark.parametrize('word', WORDS[:4])
@pytest.mark.parametrize('underline, level', [('=====', 1), ('-----', 2)], ids=['setext-1', 'setext-2'])
def test_setext_header(render, word, underline, level):
    assert render(f'{word}\n{underline}') == f'<h{level}>{word}</h{level}>'


@pytest.mark.parametrize('word', WORDS[:4])
def test_closed_atx_header(render, word):
    assert render(f'## {word} ##') == f'<h2>{word}</h2>'


@pytest.mark.parametrize('count', [1, 2, 3, 5])
@pytest.mark.parametrize('marker', ['-', '*', '+'])
def test_bullet_list(render, marker, count):
    items = WORDS[:count]
    source = '\n'.join(f'{marker} {w}' for w in items)
    expected = '<ul>\n' + ''.join(f'<li>{w}</li>\n' for w in items) + '</ul>'
    assert render(source) == expected


@pytest.mark.parametrize('count', [1, 2, 3, 5])
@pytest.mark.parametrize('start', [1, 3], ids=['from-1', 'from-3'])
def test_ordered_list(render, start, count):
    items = WORDS[:count]
    source = '\n'.join(f'{start + i}. {w}' for i, w in enumerate(items))
    # The number of the first item is ignored by default (the lazy_ol setting).
    expected = '<ol>\n' + ''.join(f'<li>{w}</li>\n' for w in items) + '</ol>'
    assert render(source) == expected


@pytest.mark.parametrize('count', [2, 3])
def test_loose_list(render, count):
    items = WORDS[:count]
    source = '\n\n'.join(f'- {w}' for w in items)
    expected = '<ul>\n' + ''.join(f'<li>\n<p>{w}</p>\n</li>\n' for w in items) + '</ul>'
    assert render(source) == expected


@pytest.mark.parametrize('outer, inner', [('apple', 'river'), ('stone', 'cloud'), ('maple', 'ember')])
def test_nested_list(render, outer, inner):
    expected = f'<ul>\n<li>{outer}<ul>\n<li>{inner}</li>\n</ul>\n</li>\n</ul>'
    assert render(f'- {outer}\n    - {inner}') == expected


@pytest.mark.parametrize('word', WORDS)
def test_blockquote(render, word):
    assert render(f'> {word}') == f'<blockquote>\n<p>{word}</p>\n</blockquote>'


@pytest.mark.parametrize('word', WORDS[:6])
def test_nested_blockquote(render, word):
    assert render(f'> > {word}') == f'<blockquote>\n<blockquote>\n<p>{word}</p>\n</blockquote>\n</blockquote>'


@pytest.mark.parametrize('word', WORDS[:6])
def test_indented_code(render, word):
    assert render(f'    {word} = 1\n    <{word}>') == f'<pre><code>{word} = 1\n&lt;{word}&gt;\n</code></pre>'


@pytest.mark.parametrize('rule', ['***', '---', '___', '* * *', '- - -'])
def test_horizontal_rule(render, rule):
    assert render(f'above\n\n{rule}\n\nbelow') == '<p>above</p>\n<hr />\n<p>below</p>'


@pytest.mark.parametrize('count', [2, 3, 4])
def test_paragraphs(render, count):
    assert render('\n\n'.join(WORDS[:count])) == '\n'.join(f'<p>{w}</p>' for w in WORDS[:count])


def test_html_block_is_kept(render):
    assert render('<div class="note">\n*not* parsed\n</div>') == '<div class="note">\n*not* parsed\n</div>'


def test_header_then_paragraph(render):
    assert render('# Title\nSome text') == '<h1>Title</h1>\n<p>Some text</p>'
