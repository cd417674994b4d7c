"""The toc extension: header ids (slugs, unique), the [TOC] marker, its settings, and toc_tokens."""
import pytest

from markdown.extensions.toc import slugify, slugify_unicode, unique


@pytest.mark.parametrize('text, expected', [
    ('Hello World', 'hello-world'),
    ('  Trim me  ', 'trim-me'),
    ("What's new?", 'whats-new'),
    ('Zürich & Genève', 'zurich-geneve'),
    ('snake_case', 'snake_case'),
    ('a -- b', 'a-b'),
    ('Tabs\tand  spaces', 'tabs-and-spaces'),
    ('100% done', '100-done'),
    ('C++ API', 'c-api'),
    ('Ünïcödé', 'unicode'),
    ('Version 2.0', 'version-20'),
    ('foo/bar', 'foobar'),
])
def test_slugify(text, expected):
    assert slugify(text, '-') == expected


@pytest.mark.parametrize('text, expected', [
    ('Hello World', 'hello_world'),
    ('Tabs\tand  spaces', 'tabs_and_spaces'),
    # Only the separator and whitespace collapse: hyphens stay.
    ('a -- b', 'a_--_b'),
])
def test_slugify_other_separator(text, expected):
    assert slugify(text, '_') == expected


@pytest.mark.parametrize('text, expected', [
    ('Zürich & Genève', 'zürich-genève'),
    ('Ünïcödé', 'ünïcödé'),
    ('日本語 テスト', '日本語-テスト'),
])
def test_slugify_unicode(text, expected):
    assert slugify_unicode(text, '-') == expected


@pytest.mark.parametrize('slug, taken, expected', [
    ('intro', set(), 'intro'),
    ('intro', {'intro'}, 'intro_1'),
    ('intro', {'intro', 'intro_1'}, 'intro_2'),
    ('intro_1', {'intro_1'}, 'intro_2'),
    ('', set(), '_1'),
], ids=['free', 'taken-once', 'taken-twice', 'numbered', 'empty'])
def test_unique(slug, taken, expected):
    assert unique(slug, taken) == expected
    assert expected in taken


def test_header_ids(render):
    assert render('# Hello World\n\n## Second *part*', 'toc') == (
        '<h1 id="hello-world">Hello World</h1>\n<h2 id="second-part">Second <em>part</em></h2>'
    )


def test_repeated_headers_get_numbered_ids(render):
    assert render('# A\n# A\n# A', 'toc') == '<h1 id="a">A</h1>\n<h1 id="a_1">A</h1>\n<h1 id="a_2">A</h1>'


def test_marker_is_replaced(render):
    html = render('[TOC]\n\n# A\n\n## B\n\n## C\n\n### D', 'toc')
    assert html == (
        '<div class="toc">\n<ul>\n<li><a href="#a">A</a><ul>\n<li><a href="#b">B</a></li>\n'
        '<li><a href="#c">C</a><ul>\n<li><a href="#d">D</a></li>\n</ul>\n</li>\n</ul>\n</li>\n</ul>\n</div>\n'
        '<h1 id="a">A</h1>\n<h2 id="b">B</h2>\n<h2 id="c">C</h2>\n<h3 id="d">D</h3>'
    )


def test_toc_tokens(make_md):
    md = make_md('toc')
    md.convert('# A\n\n## B\n\n## C\n\n### D')
    assert md.toc_tokens == [
        {'level': 1, 'id': 'a', 'name': 'A', 'children': [
            {'level': 2, 'id': 'b', 'name': 'B', 'children': []},
            {'level': 2, 'id': 'c', 'name': 'C', 'children': [
                {'level': 3, 'id': 'd', 'name': 'D', 'children': []},
            ]},
        ]},
    ]


@pytest.mark.parametrize('depth, levels', [
    (1, [1]),
    (2, [1, 2]),
    (6, [1, 2, 3, 4]),
    ('2-3', [2, 3]),
    ('3-4', [3, 4]),
])
def test_toc_depth(make_md, depth, levels):
    md = make_md('toc', toc={'toc_depth': depth})
    md.convert('# A\n## B\n### C\n#### D')

    def seen(tokens):
        for token in tokens:
            yield token['level']
            yield from seen(token['children'])

    assert list(seen(md.toc_tokens)) == levels


@pytest.mark.parametrize('config, expected', [
    pytest.param({'permalink': True}, '<h1 id="a">A<a class="headerlink" href="#a" title="Permanent link">&para;</a></h1>', id='permalink'),
    pytest.param({'permalink': '#'}, '<h1 id="a">A<a class="headerlink" href="#a" title="Permanent link">#</a></h1>', id='permalink-text'),
    pytest.param({'anchorlink': True}, '<h1 id="a"><a class="toclink" href="#a">A</a></h1>', id='anchorlink'),
    pytest.param({'baselevel': 2}, '<h2 id="a">A</h2>', id='baselevel'),
    pytest.param({'separator': '_'}, '<h1 id="a">A</h1>', id='separator'),
])
def test_header_settings(render, config, expected):
    assert render('# A', 'toc', toc=config) == expected


def test_title(render):
    assert render('[TOC]\n# A', 'toc', toc={'title': 'Contents'}) == (
        '<div class="toc"><span class="toctitle">Contents</span><ul>\n<li><a href="#a">A</a></li>\n</ul>\n</div>\n'
        '<h1 id="a">A</h1>'
    )


def test_attr_list_id_is_kept(make_md):
    md = make_md('toc', 'attr_list')
    assert md.convert('# A {#custom}\n# B') == '<h1 id="custom">A</h1>\n<h1 id="b">B</h1>'
    assert [t['id'] for t in md.toc_tokens] == ['custom', 'b']
