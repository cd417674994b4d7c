"""The task list extension: `[ ]` and `[x]` at the start of a list item become checkboxes."""
import pytest

BOX = '<input disabled="disabled" type="checkbox" />'
CHECKED = '<input checked="checked" disabled="disabled" type="checkbox" />'


@pytest.mark.parametrize('marker, box', [(' ', BOX), ('x', CHECKED), ('X', CHECKED)], ids=['open', 'done', 'done-upper'])
@pytest.mark.parametrize('bullet, tag', [('-', 'ul'), ('*', 'ul'), ('1.', 'ol')], ids=['dash', 'star', 'number'])
def test_tight_list(render, bullet, tag, marker, box):
    html = render(f'{bullet} [{marker}] write the page', 'tasklist')
    assert html == f'<{tag} class="task-list">\n<li class="task-list-item">{box} write the page</li>\n</{tag}>'


def test_loose_list(render):
    assert render('- [ ] write\n\n- [x] check', 'tasklist') == (
        '<ul class="task-list">\n'
        f'<li class="task-list-item">\n<p>{BOX} write</p>\n</li>\n'
        f'<li class="task-list-item">\n<p>{CHECKED} check</p>\n</li>\n'
        '</ul>'
    )


def test_only_tasks_get_a_box(render):
    assert render('- [x] done\n- plain item', 'tasklist') == (
        f'<ul class="task-list">\n<li class="task-list-item">{CHECKED} done</li>\n<li>plain item</li>\n</ul>'
    )


def test_markup_after_the_box(render):
    assert render('- [ ] read **this** and [that](/that)', 'tasklist') == (
        f'<ul class="task-list">\n<li class="task-list-item">{BOX} read <strong>this</strong> '
        'and <a href="/that">that</a></li>\n</ul>'
    )


def test_nested_task(render):
    assert render('- outer\n    - [x] inner', 'tasklist') == (
        f'<ul>\n<li>outer<ul class="task-list">\n<li class="task-list-item">{CHECKED} inner</li>\n</ul>\n</li>\n</ul>'
    )


def test_task_in_a_quote(render):
    assert render('> - [ ] quoted', 'tasklist') == (
        f'<blockquote>\n<ul class="task-list">\n<li class="task-list-item">{BOX} quoted</li>\n</ul>\n</blockquote>'
    )


@pytest.mark.parametrize('source', [
    pytest.param('- [ ]no space', id='no-space'),
    pytest.param('- [y] other letter', id='other-letter'),
    pytest.param('- [link](/x)', id='link'),
    pytest.param('[ ] not in a list', id='paragraph'),
    pytest.param('- text then [ ] box', id='not-at-start'),
])
def test_not_a_task(render, source):
    assert 'checkbox' not in render(source, 'tasklist')


def test_classes_are_configurable(render):
    html = render('- [x] done', 'tasklist', tasklist={'item_class': 'todo', 'list_class': 'todos'})
    assert html == f'<ul class="todos">\n<li class="todo">{CHECKED} done</li>\n</ul>'
