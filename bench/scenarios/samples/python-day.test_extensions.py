"""The other bundled extensions, each on the inputs the project's pages use."""
import pytest

WORDS = ['apple', 'river', 'stone', 'cloud', 'maple', 'ember']


def footnote(key, number, text):
    return (
        f'<li id="fn:{key}">\n<p>{text}&#160;<a class="footnote-backref" href="#fnref:{key}" '
        f'title="Jump back to footnote {number} in the text">&#8617;</a></p>\n</li>\n'
    )


def test_footnote(render):
    assert render('Text[^1].\n\n[^1]: The note.', 'footnotes') == (
        '<p>Text<sup id="fnref:1"><a class="footnote-ref" href="#fn:1">1</a></sup>.</p>\n'
        '<div class="footnote">\n<hr />\n<ol>\n' + footnote('1', 1, 'The note.') + '</ol>\n</div>'
    )


def test_footnotes_are_numbered_in_order(render):
    html = render('Text[^a] and[^b].\n\n[^a]: One.\n[^b]: Two.', 'footnotes')
    assert footnote('a', 1, 'One.') + footnote('b', 2, 'Two.') in html


@pytest.mark.parametrize('word', WORDS)
def test_abbreviation(render, word):
    html = render(f'The {word.upper()} and {word.upper()}.\n\n*[{word.upper()}]: All about {word}', 'abbr')
    abbr = f'<abbr title="All about {word}">{word.upper()}</abbr>'
    assert html == f'<p>The {abbr} and {abbr}.</p>'


@pytest.mark.parametrize('word', WORDS)
def test_definition_list(render, word):
    assert render(f'{word.title()}\n:   A kind of {word}.', 'def_list') == (
        f'<dl>\n<dt>{word.title()}</dt>\n<dd>A kind of {word}.</dd>\n</dl>'
    )


@pytest.mark.parametrize('fence, language, expected_class', [
    ('```', 'python', ' class="language-python"'),
    ('~~~', 'sh', ' class="language-sh"'),
    ('```', '', ''),
    ('~~~~', '', ''),
])
def test_fenced_code(render, fence, language, expected_class):
    html = render(f'{fence}{language}\nx = <1>\n{fence}', 'fenced_code')
    assert html == f'<pre><code{expected_class}>x = &lt;1&gt;\n</code></pre>'


def test_fenced_code_with_attributes(render):
    assert render('``` { .python #code1 }\nx\n```', 'fenced_code', 'attr_list') == (
        '<pre id="code1"><code class="language-python">x\n</code></pre>'
    )


@pytest.mark.parametrize('attributes, expected', [
    ('{: .note }', ' class="note"'),
    ('{: #p1 }', ' id="p1"'),
    ('{: .note #p1 }', ' class="note" id="p1"'),
    ('{: data-x="1" }', ' data-x="1"'),
])
def test_attr_list(render, attributes, expected):
    assert render(f'A paragraph.\n{attributes}', 'attr_list') == f'<p{expected}>A paragraph.</p>'


@pytest.mark.parametrize('kind, title, shown', [
    ('note', ' "Read this"', 'Read this'),
    ('warning', '', 'Warning'),
    ('danger', ' "Stop"', 'Stop'),
])
def test_admonition(render, kind, title, shown):
    assert render(f'!!! {kind}{title}\n    Body.', 'admonition') == (
        f'<div class="admonition {kind}">\n<p class="admonition-title">{shown}</p>\n<p>Body.</p>\n</div>'
    )


@pytest.mark.parametrize('source, expected', [
    ('"Quoted"', '&ldquo;Quoted&rdquo;'),
    ("it's", 'it&rsquo;s'),
    ('a -- b', 'a &ndash; b'),
    ('a --- b', 'a &mdash; b'),
    ('wait...', 'wait&hellip;'),
])
def test_smarty(render, source, expected):
    assert render(source, 'smarty') == f'<p>{expected}</p>'


def test_sane_lists_do_not_mix_kinds(render):
    assert render('1. a\n* b', 'sane_lists') == '<ol>\n<li>a\n* b</li>\n</ol>'


def test_nl2br(render):
    assert render('a\nb', 'nl2br') == '<p>a<br />\nb</p>'


@pytest.mark.parametrize('config, href', [
    ({}, '/Main_Page/'),
    ({'base_url': '/wiki/', 'end_url': '.html'}, '/wiki/Main_Page.html'),
])
def test_wikilinks(render, config, href):
    assert render('[[Main Page]]', 'wikilinks', wikilinks=config) == f'<p><a class="wikilink" href="{href}">Main Page</a></p>'


def test_meta(make_md):
    md = make_md('meta')
    assert md.convert('Title: Hello\nTags: a\n    b\n\nBody') == '<p>Body</p>'
    assert md.Meta == {'title': ['Hello'], 'tags': ['a', 'b']}
