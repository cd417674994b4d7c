"""Inline Markdown: emphasis, code spans, links, images, escapes and entities, each on a dozen words."""
import pytest

WORDS = ['apple', 'river', 'stone', 'cloud', 'maple', 'ember', 'harbor', 'meadow', 'copper', 'lantern', 'willow', 'quartz']

# name: (Markdown template, expected HTML template); {w} is the word.
TEMPLATES = {
    'em-star': ('*{w}*', '<p><em>{w}</em></p>'),
    'em-underscore': ('_{w}_', '<p><em>{w}</em></p>'),
    'strong-star': ('**{w}**', '<p><strong>{w}</strong></p>'),
    'strong-underscore': ('__{w}__', '<p><strong>{w}</strong></p>'),
    'strong-em': ('***{w}***', '<p><strong><em>{w}</em></strong></p>'),
    'code': ('`{w}`', '<p><code>{w}</code></p>'),
    'link': ('[{w}](https://example.com/{w})', '<p><a href="https://example.com/{w}">{w}</a></p>'),
    'link-title': ('[{w}](/{w} "About {w}")', '<p><a href="/{w}" title="About {w}">{w}</a></p>'),
    'image': ('![{w}]({w}.png)', '<p><img alt="{w}" src="{w}.png" /></p>'),
    'autolink': ('<https://example.com/{w}>', '<p><a href="https://example.com/{w}">https://example.com/{w}</a></p>'),
    'escaped-stars': ('\\*{w}\\*', '<p>*{w}*</p>'),
    'reference': ('[{w}][ref]\n\n[ref]: https://example.com/{w}', '<p><a href="https://example.com/{w}">{w}</a></p>'),
}

CASES = [
    pytest.param(source.format(w=word), expected.format(w=word), id=f'{name}-{word}')
    for name, (source, expected) in TEMPLATES.items()
    for word in WORDS
]


@pytest.mark.parametrize('source, expected', CASES)
def test_inline(render, source, expected):
    assert render(source) == expected


@pytest.mark.parametrize('source, expected', [
    pytest.param('AT&T', '<p>AT&amp;T</p>', id='bare-ampersand'),
    pytest.param('4 < 5', '<p>4 &lt; 5</p>', id='less-than'),
    pytest.param('&copy; 2024', '<p>&copy; 2024</p>', id='named-entity'),
    pytest.param('&#169; 2024', '<p>&#169; 2024</p>', id='numeric-entity'),
    pytest.param('<b>bold</b> text', '<p><b>bold</b> text</p>', id='inline-html'),
    pytest.param('snake_case_name', '<p>snake_case_name</p>', id='intraword-underscores'),
    pytest.param('a * b * c', '<p>a * b * c</p>', id='spaced-stars'),
    pytest.param('``a `tick` b``', '<p><code>a `tick` b</code></p>', id='code-with-backtick'),
    pytest.param('`<div>`', '<p><code>&lt;div&gt;</code></p>', id='code-escapes-html'),
    pytest.param('line one  \nline two', '<p>line one<br />\nline two</p>', id='hard-break'),
])
def test_special_text(render, source, expected):
    assert render(source) == expected
