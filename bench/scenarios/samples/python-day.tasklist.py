"""
Task List Extension for Python-Markdown
=======================================

List items that start with `[ ]` or `[x]` become checkboxes:

    - [x] write the page
    - [ ] check the links

The box is a disabled `<input type="checkbox">` (checked for `[x]` or `[X]`), the item gets the
`task-list-item` class and its list the `task-list` class (both configurable).

License: [BSD](https://opensource.org/licenses/bsd-license.php)
"""

import re
import xml.etree.ElementTree as etree

from . import Extension
from ..treeprocessors import Treeprocessor

# "[ ] ", "[x] " or "[X] " at the start of an item's text.
BOX_RE = re.compile(r'^\[([ xX])\][ \t]+')


class TaskListTreeprocessor(Treeprocessor):
    """ Turns the `[ ]` and `[x]` that open list items into checkboxes. """

    def __init__(self, md, config):
        super().__init__(md)
        self.item_class = config['item_class']
        self.list_class = config['list_class']

    def run(self, root):
        for parent in root.iter():
            if parent.tag not in ('ul', 'ol'):
                continue
            for li in parent.findall('li'):
                match = BOX_RE.match(li.text or '')
                if match is None:
                    continue
                box = etree.Element('input', {'type': 'checkbox', 'disabled': 'disabled'})
                if match.group(1) != ' ':
                    box.set('checked', 'checked')
                box.tail = ' ' + li.text[match.end():]
                li.text = None
                li.insert(0, box)
                add_class(li, self.item_class)
                add_class(parent, self.list_class)


def add_class(element, name):
    classes = element.get('class', '').split()
    if name not in classes:
        element.set('class', ' '.join(classes + [name]))


class TaskListExtension(Extension):
    """ Add task lists to Markdown. """

    def __init__(self, **kwargs):
        self.config = {
            'item_class': ['task-list-item', 'CSS class of a list item with a checkbox.'],
            'list_class': ['task-list', 'CSS class of a list holding a task.'],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        # After the inline patterns (20), so the text after the box is already rendered, and before
        # prettify (10), which indents the tree.
        md.treeprocessors.register(TaskListTreeprocessor(md, self.getConfigs()), 'tasklist', 15)


def makeExtension(**kwargs):  # pragma: no cover
    return TaskListExtension(**kwargs)
