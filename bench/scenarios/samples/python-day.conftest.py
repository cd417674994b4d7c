"""Fixtures shared by the whole suite: Markdown rendered the way the project's pages are rendered."""
import markdown
import pytest

# The extensions that ship with the package, by their short names (this checkout is not installed, so
# the entry points that map 'toc' to markdown.extensions.toc are not there: name the module).
PREFIX = 'markdown.extensions.'


def _names(extensions):
    return [name if '.' in name else PREFIX + name for name in extensions]


@pytest.fixture
def make_md():
    """A Markdown instance with the given extensions, e.g. make_md('toc', toc={'permalink': True})."""
    def make(*extensions, **configs):
        return markdown.Markdown(
            extensions=_names(extensions),
            extension_configs={PREFIX + name: config for name, config in configs.items()},
        )
    return make


@pytest.fixture
def render(make_md):
    """Markdown text to HTML with the given extensions: render('| a |', 'tables')."""
    def convert(text, *extensions, **configs):
        return make_md(*extensions, **configs).convert(text)
    return convert
