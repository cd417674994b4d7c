/**
 * Builds `python-day.json` (run: `node --import tsx bench/scenarios/build-python-day.ts`): a working day on
 * a checkout of Python-Markdown 3.4.1 (BSD-3-Clause; Debian's python3-markdown, fetched into the bench's
 * cache and copied at run time, 7,286 lines in 33 modules) with the docs team's own pytest suite, tools
 * and pages. Nine related tasks one after another: a table alignment bug, a task-list extension with
 * tests, a link checker script for the docs, its suggestions and tests, moving the slug helpers out of the
 * toc extension (old names kept, deprecated), a TOC nesting bug, a quadratic id search made linear (with a
 * slow-marked test), open tasks in the checker, and a review. Every step runs the real toolchain, Debian's
 * python3 and pytest 7.2: whole-suite runs, `-v` runs with parametrized ids, `-x`, `-k`, `--lf`, `-m`,
 * `--durations`, tracebacks with assertion introspection, a collection error, warnings summaries, Python
 * tracebacks from a script, a cProfile table. Edits take their old text from the fetched package (or from
 * what the day wrote before), so the build fails loudly if the source changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceRoot, type BenchSource } from '../economy/benchSources';
import { withIdlePattern } from './idlePattern';
import { bash, between, edit, grep, read, say, step, user, write, writeScenario, type ToolCall, type Turn } from './scriptSteps';

const SOURCE: BenchSource = { name: 'markdown', debian: 'python3-markdown', version: '3.4.1-2+deb12u1' };
const PACKAGE_DIR = 'usr/lib/python3/dist-packages/markdown';
const own = (name: string): string => readFileSync(join(__dirname, 'samples', `python-day.${name}`), 'utf8');

/**
 * The workspace's files as the day changes them: every edit is applied here first (it must match exactly
 * once, as the agents' edit tools require), so later edits and the line numbers of later reads are taken
 * from what the files hold at that moment.
 */
class Files {
  private readonly files = new Map<string, string>();
  set(path: string, text: string): void {
    this.files.set(path, text);
  }
  get(path: string): string {
    const text = this.files.get(path);
    if (text === undefined) throw new Error(`${path} is not in the day's workspace`);
    return text;
  }
  edit(path: string, old: string, replacement: string): ToolCall {
    const text = this.get(path);
    const at = text.indexOf(old);
    if (at < 0 || text.indexOf(old, at + 1) >= 0)
      throw new Error(`${path}: the edit's old text must occur exactly once: ${JSON.stringify(old.slice(0, 80))}`);
    this.files.set(path, text.slice(0, at) + replacement + text.slice(at + old.length));
    return edit(path, old, replacement);
  }
  write(path: string, content: string): ToolCall {
    this.files.set(path, content);
    return write(path, content);
  }
  /** The 1-based line where `marker` starts. */
  lineOf(path: string, marker: string): number {
    const text = this.get(path);
    const at = text.indexOf(marker);
    if (at < 0) throw new Error(`${path}: no ${JSON.stringify(marker)}`);
    return text.slice(0, at).split('\n').length;
  }
  /** A read of `count` lines starting `before` lines above the line holding `marker`. */
  readAt(path: string, marker: string, before: number, count: number): ToolCall {
    return read(path, Math.max(1, this.lineOf(path, marker) - before), count);
  }
}

async function build(): Promise<void> {
  const root = join(await sourceRoot(SOURCE), PACKAGE_DIR);
  const pkg = (path: string): string => readFileSync(join(root, path), 'utf8');
  const files = new Files();
  for (const path of ['extensions/tables.py', 'extensions/toc.py', 'extensions/__init__.py', 'treeprocessors.py', 'util.py'])
    files.set(`markdown/${path}`, pkg(path));

  // The day's own files (bench/scenarios/samples/python-day.*), written into the workspace or by the agent.
  const WORKSPACE: Record<string, string> = {
    '.python-version': 'system\n',
    'pytest.ini': '[pytest]\ntestpaths = tests\n',
    'README.md':
      "# Python-Markdown, the docs team's checkout\n\nPython-Markdown 3.4.1 (`markdown/`, Debian's python3-markdown sources; BSD-3-Clause, see\n`copyright`) with our own tests (`tests/`), tools (`scripts/`) and pages (`docs/`).\n\nRun the tests with `python3 -m pytest`. `.python-version` pins the system Python (pyenv), which\nhas pytest 7.2 from Debian's python3-pytest. The checkout is not installed: extensions are named by\nmodule (`markdown.extensions.toc`), not by their entry point names (`toc`).\n",
    'tests/conftest.py': own('conftest.py'),
    'tests/test_inline.py': own('test_inline.py'),
    'tests/test_blocks.py': own('test_blocks.py'),
    'tests/test_tables.py': own('test_tables.py'),
    'tests/test_toc.py': own('test_toc.py'),
    'tests/test_extensions.py': own('test_extensions.py'),
    'docs/index.md': own('docs-index.md'),
    'docs/guide.md': own('docs-guide.md'),
    'docs/install.md': own('docs-install.md'),
    'docs/api.md': own('docs-api.md'),
  };
  for (const [path, text] of Object.entries(WORKSPACE)) files.set(path, text);

  // The two planted bugs (x-bench-patch): the separator cells' spaces are no longer stripped before their
  // colons are read (so `| :---: |` aligns nothing), and a heading going back up to a level already open
  // is nested under its sibling.
  const STRIP_OK = "        for c in self.separator:\n            c = c.strip(' ')\n";
  const STRIP_BUG = '        for c in self.separator:\n';
  const NEST_OK = "                    if current_level <= p['level']:\n";
  const NEST_BUG = "                    if current_level < p['level']:\n";
  files.edit('markdown/extensions/tables.py', STRIP_OK, STRIP_BUG);
  files.edit('markdown/extensions/toc.py', NEST_OK, NEST_BUG);

  const TABLES = 'markdown/extensions/tables.py';
  const TOC = 'markdown/extensions/toc.py';
  const TASKLIST = 'markdown/extensions/tasklist.py';
  const SLUGS = 'markdown/slugs.py';
  const CHECKER = 'scripts/check_links.py';
  const TOC_TESTS = 'tests/test_toc.py';
  const TASK_TESTS = 'tests/test_tasklist.py';
  const CHECKER_TESTS = 'tests/test_check_links.py';
  const tocSource = pkg('extensions/toc.py');

  const ALIGNMENT_DEMO = String.raw`python3 -c "import markdown; t = lambda s: markdown.markdown(s, extensions=['markdown.extensions.tables']); print(t('| a | b |\n| :--- | ---: |\n| 1 | 2 |')); print(t('|a|b|\n|:---|---:|\n|1|2|'))"`;

  // Task 2: the task-list extension, first without loose lists.
  const TASKLIST_V1 = own('tasklist.py');
  const LOOSE_OLD = "            for li in parent.findall('li'):\n                match = BOX_RE.match(li.text or '')\n";
  const LOOSE_NEW =
    "            for li in parent.findall('li'):\n                # In a loose list (items apart by blank lines) an item's text is in a paragraph.\n                holder = li[0] if len(li) and li[0].tag == 'p' and not (li.text or '').strip() else li\n                match = BOX_RE.match(holder.text or '')\n";
  const LOOSE_OLD_2 =
    "                box.tail = ' ' + li.text[match.end():]\n                li.text = None\n                li.insert(0, box)\n";
  const LOOSE_NEW_2 =
    "                box.tail = ' ' + holder.text[match.end():]\n                holder.text = None\n                holder.insert(0, box)\n";
  const TASKLIST_DEMO = String.raw`python3 -c "import markdown; print(markdown.markdown('- [x] write **the** page\n- [ ] check links\n- plain', extensions=['markdown.extensions.tasklist']))"`;

  // Task 3: the link checker, first version (it imports markdown from scripts/, and a link to a page
  // that does not exist is a KeyError).
  const CHECKER_V1 = own('check_links.py');
  const SYS_PATH_OLD = 'from pathlib import Path\n\nimport markdown\n';
  const SYS_PATH_NEW =
    "from pathlib import Path\n\n# Run as `python3 scripts/check_links.py`: the checkout's own markdown package, not an installed one.\nsys.path.insert(0, str(Path(__file__).resolve().parent.parent))\nimport markdown  # noqa: E402\n";
  const MISSING_PAGE_OLD =
    "                page = path.parent / target if target else path\n                if anchor not in anchors[page]:\n                    problems.append(f'{path}:{number}: no #{anchor} in {page}')\n";
  const MISSING_PAGE_NEW =
    "                page = path.parent / target if target else path\n                if page not in anchors:\n                    problems.append(f'{path}:{number}: no page {page}')\n                elif anchor not in anchors[page]:\n                    problems.append(f'{path}:{number}: no #{anchor} in {page}')\n";
  const HEADING_IDS = between(CHECKER_V1, 'def heading_ids(md, text):', '\n\ndef check(folders):');
  const PAGE_IDS =
    'def page_ids(md, text):\n    """Every id in a page as rendered: headings, and whatever attr_list set (`{: #limits }`)."""\n    md.reset()\n    return set(ID_RE.findall(md.convert(text)))';
  const ID_RE_OLD = "LINK_RE = re.compile(r'\\]\\(([^)\\s#]*)#([^)\\s]+)\\)')\n";
  const ID_RE_NEW = `${ID_RE_OLD}ID_RE = re.compile(r' id="([^"]+)"')\n`;

  // Task 4: suggestions, then code skipped.
  const SUGGEST_OLD =
    "                elif anchor not in anchors[page]:\n                    problems.append(f'{path}:{number}: no #{anchor} in {page}')\n";
  const SUGGEST_NEW =
    "                elif anchor not in anchors[page]:\n                    close = difflib.get_close_matches(anchor, anchors[page], n=1)\n                    hint = f' (did you mean #{close[0]}?)' if close else ''\n                    problems.append(f'{path}:{number}: no #{anchor} in {page}{hint}')\n";
  const CODE_OLD =
    '    for path, text in pages.items():\n        for number, line in enumerate(text.splitlines(), start=1):\n            for target, anchor in LINK_RE.findall(line):\n';
  const CODE_NEW =
    '    for path, text in pages.items():\n        for number, line in prose_lines(text):\n            for target, anchor in LINK_RE.findall(line):\n';
  const PROSE_LINES =
    '\n\ndef prose_lines(text):\n    """(number, line) for a page\'s lines outside code: fenced blocks left out, code spans blanked."""\n    fence = None\n    for number, line in enumerate(text.splitlines(), start=1):\n        marker = FENCE_RE.match(line)\n        if marker and (fence is None or marker.group(1).startswith(fence)):\n            fence = marker.group(1)[:3] if fence is None else None\n        elif fence is None:\n            yield number, CODE_SPAN_RE.sub(\'\', line)\n';
  const CODE_RE_NEW = `${ID_RE_NEW}FENCE_RE = re.compile(r'^ {0,3}(\`{3,}|~{3,})')\nCODE_SPAN_RE = re.compile(r'(\`+).+?\\1')\n`;

  // Task 5: the slug helpers move to markdown/slugs.py.
  const MOVED = between(tocSource, 'def slugify(value, separator, unicode=False):', '\n\ndef get_name(el):');
  const SLUGS_V1 =
    '"""\nSlugs: the ids Markdown gives headings, made from their text.\n\nMoved out of the toc extension (`markdown.extensions.toc`), which still offers the old names with\na DeprecationWarning, so that other code can make the same ids without loading an extension.\n\nLicense: [BSD](https://opensource.org/licenses/bsd-license.php)\n"""\n\nimport re\nimport unicodedata\n\n\n' +
    MOVED +
    '\n';
  const TOC_IMPORTS_OLD = 'from ..util import code_escape, parseBoolValue, AMP_SUBSTITUTE, HTML_PLACEHOLDER_RE, AtomicString\n';
  const TOC_IMPORTS_NEW =
    'from ..util import code_escape, parseBoolValue, AMP_SUBSTITUTE, HTML_PLACEHOLDER_RE, AtomicString, deprecated\nfrom .. import slugs\n';
  const ALIASES_V1 =
    '# Moved to markdown.slugs: the old names still work, with a DeprecationWarning.\nslugify = deprecated("Import it from \'markdown.slugs\' instead.")(slugs.slugify)\nunique = deprecated("Import it from \'markdown.slugs\' instead.")(slugs.unique)';
  const ALIASES =
    '# Moved to markdown.slugs: the old names still work, with a DeprecationWarning.\nslugify = deprecated("Import it from \'markdown.slugs\' instead.")(slugs.slugify)\nslugify_unicode = deprecated("Import it from \'markdown.slugs\' instead.")(slugs.slugify_unicode)\nunique = deprecated("Import it from \'markdown.slugs\' instead.")(slugs.unique)';
  const UNIQUE_CALL_OLD = '                    el.attrib["id"] = unique(self.slugify(innertext, self.sep), used_ids)\n';
  const UNIQUE_CALL_NEW = '                    el.attrib["id"] = slugs.unique(self.slugify(innertext, self.sep), used_ids)\n';
  const DEFAULT_SLUGIFY_OLD = '            "slugify": [slugify,\n';
  const DEFAULT_SLUGIFY_NEW = '            "slugify": [slugs.slugify,\n';
  const OLD_NAMES_BODY = `    old = getattr(toc, name)
    with pytest.warns(DeprecationWarning, match=f"'{name}' is deprecated"):
        result = old(*args)
    assert result == getattr(slugs, name)(*args)
`;
  const OLD_NAMES_TESTS = `

@pytest.mark.parametrize('name, args', [
    ('slugify', ('Hello World', '-')),
    ('slugify_unicode', ('Zürich', '-')),
    ('unique', ('intro', {'intro'})),
])
def test_old_names_warn(name, args):
${OLD_NAMES_BODY}`;
  const OLD_NAMES_BODY_FIXED = `    # unique() adds the id it returns to the set it is given: each call gets a copy of the arguments.
    fresh = lambda: [set(arg) if isinstance(arg, set) else arg for arg in args]  # noqa: E731
    with pytest.warns(DeprecationWarning, match=f"'{name}' is deprecated"):
        result = getattr(toc, name)(*fresh())
    assert result == getattr(slugs, name)(*fresh())
`;

  // Task 6: the nesting tests, then the fix.
  const NESTING_TESTS = `

def shape(tokens):
    """A TOC as nested (name, children) pairs."""
    return [(token['name'], shape(token['children'])) for token in tokens]


@pytest.mark.parametrize('source, expected', [
    pytest.param('# A\\n## B\\n### C\\n## D', [('A', [('B', [('C', [])]), ('D', [])])], id='up-one-level'),
    pytest.param('# A\\n## B\\n### C\\n# D', [('A', [('B', [('C', [])])]), ('D', [])], id='up-two-levels'),
    pytest.param('## A\\n### B\\n#### C\\n### D\\n## E', [('A', [('B', [('C', [])]), ('D', [])]), ('E', [])], id='up-and-up'),
    pytest.param('# A\\n### B\\n## C', [('A', [('B', []), ('C', [])])], id='skipped-level'),
    pytest.param('### A\\n## B\\n# C', [('A', []), ('B', []), ('C', [])], id='starts-deep'),
    pytest.param('# A\\n## B\\n## C', [('A', [('B', []), ('C', [])])], id='siblings'),
])
def test_nesting(make_md, source, expected):
    md = make_md('toc')
    md.convert(source)
    assert shape(md.toc_tokens) == expected
`;
  const GUIDE_TOC = String.raw`python3 -c "import markdown; md = markdown.Markdown(extensions=['markdown.extensions.toc']); md.convert(open('docs/guide.md').read()); print(md.toc)"`;

  // Task 7: ids in linear time.
  const UNIQUE_IDS = `


class UniqueIds:
    """
    The ids of one document, each new one made unique exactly as \`unique\` makes it, in linear time.

    \`unique\` tries \`id_1\`, \`id_2\`, … from the first each time, so n headings with the same text cost
    n² tries. This remembers, for each base, the first number not known to be taken.
    """

    def __init__(self, taken=()):
        self.taken = set(taken)
        # base -> n such that base_1 … base_(n-1) are all taken.
        self.first_unknown = {}

    def add(self, id):
        """ The id itself if it is free, or the first free \`base_N\` that \`unique\` would give. """
        if id and id not in self.taken:
            self.taken.add(id)
            return id
        m = IDCOUNT_RE.match(id)
        base, start = (m.group(1), int(m.group(2)) + 1) if m else (id, 1)
        known = self.first_unknown.get(base, 1)
        number = known if start <= known else start
        while '%s_%d' % (base, number) in self.taken:
            number += 1
        if start <= known:
            self.first_unknown[base] = number + 1
        id = '%s_%d' % (base, number)
        self.taken.add(id)
        return id`;
  const RUN_IDS_OLD = '        toc_tokens = []\n        for el in doc.iter():\n';
  const RUN_IDS_NEW = '        ids = slugs.UniqueIds(used_ids)\n        toc_tokens = []\n        for el in doc.iter():\n';
  const UNIQUE_IDS_TESTS = `

@pytest.mark.parametrize('seed', range(25))
def test_unique_ids_agree_with_unique(seed):
    rng = random.Random(seed)
    words = ['intro', 'intro_1', 'intro_2', 'intro_7', 'a', 'a_3', 'b_1', '']
    taken = set(rng.sample(words, 3))
    ids = slugs.UniqueIds(taken)
    for _ in range(40):
        word = rng.choice(words)
        assert ids.add(word) == unique(word, taken)


@pytest.mark.slow
def test_long_changelog(make_md):
    md = make_md('toc')
    html = md.convert('\\n\\n'.join(f'## Release {n}\\n\\n### Fixed\\n\\n### Added' for n in range(3000)))
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(set(ids)) == len(ids) == 9000
    assert ids[-3:] == ['release-2999', 'fixed_2999', 'added_2999']
`;

  // Task 8: open tasks in the checker.
  const TASK_RE_OLD = "CODE_SPAN_RE = re.compile(r'(`+).+?\\1')\n";
  const TASK_RE_NEW =
    "CODE_SPAN_RE = re.compile(r'(`+).+?\\1')\n# An open task: `- [ ] text` (or `*`, `+`, `1.`), the form the tasklist extension renders.\nTASK_RE = re.compile(r'^\\s*(?:[-*+]|\\d+\\.)\\s+\\[ \\]\\s+(.*)')\n";
  const OPEN_TASKS =
    '\n\ndef open_tasks(folders):\n    """`file:line: open task: text` for every open task of the pages, outside code."""\n    tasks = []\n    for folder in folders:\n        for path in sorted(Path(folder).rglob(\'*.md\')):\n            for number, line in prose_lines(path.read_text(encoding=\'utf-8\')):\n                task = TASK_RE.match(line)\n                if task:\n                    tasks.append(f\'{path}:{number}: open task: {task.group(1)}\')\n    return tasks\n';
  const MAIN_OLD =
    "def main(argv):\n    if not argv:\n        print(__doc__.splitlines()[2], file=sys.stderr)\n        return 2\n    problems = check(argv)\n    for problem in problems:\n        print(problem)\n    print(f'{len(problems)} broken link(s)')\n    return 1 if problems else 0\n";
  const MAIN_NEW =
    "def main(argv):\n    tasks = '--tasks' in argv\n    folders = [arg for arg in argv if arg != '--tasks']\n    if not folders:\n        print(__doc__.splitlines()[2], file=sys.stderr)\n        return 2\n    problems = check(folders)\n    for problem in problems:\n        print(problem)\n    print(f'{len(problems)} broken link(s)')\n    if tasks:\n        # Open tasks are reported, not failures: the exit code is the links'.\n        found = open_tasks(folders)\n        for task in found:\n            print(task)\n        print(f'{len(found)} open task(s)')\n    return 1 if problems else 0\n";
  const USAGE_OLD = 'Usage: python3 scripts/check_links.py FOLDER...\n';
  const USAGE_NEW = 'Usage: python3 scripts/check_links.py [--tasks] FOLDER...\n';
  const TASKS_TEST = `

def test_open_tasks(page, capsys):
    page('todo.md', '# Todo\\n\\n- [x] done\\n- [ ] write the intro\\n\\n\`\`\`\\n- [ ] in code\\n\`\`\`\\n\\n1. [ ] number one\\n')
    code, out, err = check(capsys, '--tasks', 'docs')
    assert code == 0
    assert out == [
        '0 broken link(s)',
        'docs/todo.md:4: open task: write the intro',
        'docs/todo.md:10: open task: number one',
        '2 open task(s)',
    ]
`;

  const turns: Turn[] = [];
  const add = (...more: Turn[]): void => {
    turns.push(...more);
  };

  // 1. The table alignment bug.
  add(
    user(
      "Since this morning our docs pages lose the alignment of their table columns (docs/index.md's changelog table is all left-aligned), and `python3 -m pytest` fails. Find the cause and fix it.",
    ),
    step("I'll run the suite first.", [bash('python3 -m pytest')]),
    step(
      'Every failure is in tests/test_tables.py. Which cases, exactly?',
      [bash('python3 -m pytest tests/test_tables.py -v --tb=no')],
      ['14 failed, 360 passed'],
    ),
    step(
      'Padded separator rows (`| :--- |`) lose all their alignment and borderless ones part of it; compact ones (`|:---|`) keep it. The test builds the rows like this:',
      [files.readAt('tests/test_tables.py', 'def layout(style, cells):', 1, 30)],
      ['test_alignment[none-center-padded] FAILED', 'test_alignment[left-left-compact] PASSED'],
    ),
    step('The same two tables by hand:', [bash(ALIGNMENT_DEMO)]),
    step('Where does the extension read the alignment?', [grep('align|separator', TABLES)], ['<th>b</th>']),
    step(undefined, [files.readAt(TABLES, '    def test(self, parent, block):', 0, 70)]),
    step(
      "test() keeps the separator row's cells as `_split_row` returns them, with their spaces (`' :--- '`), and run() checks `startswith(':')` / `endswith(':')` on them unstripped, so a padded cell never matches. Strip each cell first:",
      [files.edit(TABLES, STRIP_BUG, STRIP_OK)],
    ),
    step(undefined, [bash(ALIGNMENT_DEMO)]),
    step('Both tables align now. The failures from before:', [bash('python3 -m pytest --lf -q')]),
    step(undefined, [bash('python3 -m pytest -q')]),
    step('And the page that showed it:', [
      bash(
        String.raw`python3 -c "import markdown; print(markdown.markdown(open('docs/index.md').read(), extensions=['markdown.extensions.tables']))" | grep -E "<t[hd]" | head -8`,
      ),
    ]),
    say(
      "Fixed in markdown/extensions/tables.py: run() read the alignment from the separator row's cells without stripping their spaces, so `| :---: |` or `| ---: |` (any padded or borderless separator) set no alignment; only compact rows like `|:---:|` worked. Each cell is stripped again before its colons are checked. The 14 failing table tests pass, and the whole suite passes (374).",
      ['374 passed'],
    ),
  );

  // 2. A task-list extension.
  add(
    user(
      'Our pages use GitHub-style task lists (`- [ ] todo`, `- [x] done`), which render as literal brackets. Add a `tasklist` extension that renders them as disabled checkboxes, with a class on the item and on its list, and tests.',
    ),
    step('Let me see how an extension plugs in, and what a tree processor gets.', [
      files.readAt('markdown/extensions/__init__.py', 'class Extension:', 0, 70),
    ]),
    step(undefined, [grep('register\\(', 'markdown/treeprocessors.py')]),
    step(undefined, [files.readAt('markdown/treeprocessors.py', 'def build_treeprocessors(md, **kwargs):', 0, 50)]),
    step('What do list items look like after the inline patterns ran?', [
      bash(String.raw`python3 -c "import markdown; print(markdown.markdown('- [ ] todo\n- [x] **done**'))"`),
    ]),
    step('How do other extensions that rewrite the tree take their settings? The toc extension does that:', [
      grep('treeprocessors.register|getConfigs', 'markdown/extensions'),
    ]),
    step("A tree processor after the inline patterns (priority 20) and before prettify (10) sees each item's final text. The extension:", [
      files.write(TASKLIST, TASKLIST_V1),
    ]),
    step(undefined, [bash(TASKLIST_DEMO)]),
    step('The tests, in the style of the others:', [files.write(TASK_TESTS, own('test_tasklist.py'))]),
    step(undefined, [bash(`python3 -m pytest ${TASK_TESTS} -v`)]),
    step(
      "test_loose_list fails: in a loose list (items separated by blank lines) each item's text is inside a `<p>`, so `li.text` is empty and the box is never found. Look in the paragraph then:",
      [files.edit(TASKLIST, LOOSE_OLD, LOOSE_NEW)],
      ['<p>[ ] write</p>'],
    ),
    step(undefined, [files.edit(TASKLIST, LOOSE_OLD_2, LOOSE_NEW_2)]),
    step(undefined, [bash(`python3 -m pytest ${TASK_TESTS} -x -q`)]),
    step(undefined, [bash('python3 -m pytest -q')]),
    step(undefined, [files.readAt(TASKLIST, 'class TaskListTreeprocessor(Treeprocessor):', 0, 40)]),
    say(
      'Added markdown/extensions/tasklist.py (`markdown.extensions.tasklist`): a tree processor, run after the inline patterns, turns a list item that starts with `[ ]`, `[x]` or `[X]` into a disabled checkbox (checked for x), gives the item the `task-list-item` class and its list `task-list` (both settings: `item_class`, `list_class`). Tight and loose lists, nested lists and quoted lists work; anything else is left alone. tests/test_tasklist.py has 20 tests; the suite passes (394).',
      ['394 passed'],
    ),
  );

  // 3. A link checker for the docs.
  add(
    user(
      'Write scripts/check_links.py: given folders of Markdown pages, render each one the way the site does (toc, tables, fenced_code, attr_list) and report every link to an anchor that does not exist — `[x](#id)` in the same page, `[x](page.md#id)` in another — as `file:line: message`; exit 1 when there is one. Try it on docs/.',
    ),
    step(undefined, [bash('ls docs scripts; wc -l docs/*.md')]),
    step(undefined, [read('docs/guide.md')]),
    step('The toc extension already computes the heading ids; where does it leave them?', [grep('toc_tokens', 'markdown')]),
    step(undefined, [files.readAt(TOC, '    def run(self, doc):', 0, 50)]),
    step('`md.toc_tokens` holds the nested headings with their ids after a conversion. The script:', [files.write(CHECKER, CHECKER_V1)]),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"')]),
    step(
      "Run by path, Python puts scripts/ first on sys.path, not the checkout, so `import markdown` finds nothing. The script adds the checkout's root:",
      [files.edit(CHECKER, SYS_PATH_OLD, SYS_PATH_NEW)],
      ["No module named 'markdown'"],
    ),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"')]),
    step(
      'A KeyError: docs/install.md links to setup.md, which does not exist, and the script looks its anchors up unchecked. A missing page is a broken link too:',
      [files.edit(CHECKER, MISSING_PAGE_OLD, MISSING_PAGE_NEW)],
      ["KeyError: PosixPath('docs/setup.md')"],
    ),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"')]),
    step(
      'Two reports of `#limits` in api.md; let me check the page before trusting them.',
      [read('docs/api.md')],
      ['no #limits in docs/api.md'],
    ),
    step(
      '`#limits` is real: attr_list sets it on a paragraph (`{: #limits }`), and toc_tokens only hold headings. Every id of the rendered page counts, so take them from the HTML:',
      [files.edit(CHECKER, ID_RE_OLD, ID_RE_NEW)],
    ),
    step(undefined, [files.edit(CHECKER, HEADING_IDS, PAGE_IDS)]),
    step(undefined, [files.edit(CHECKER, 'anchors = {path: heading_ids(md, text)', 'anchors = {path: page_ids(md, text)')]),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"')]),
    say(
      'scripts/check_links.py renders each page with toc, tables, fenced_code and attr_list, collects every id of the rendered page (headings and attr_list ids such as `{: #limits }`), and reports `file:line: no #id in page` or `no page …` for each broken link; it exits 1 when there is one, 2 without a folder. On docs/ it finds 7: api.md links `#errors`, `#render-text-extensions` and `#check-folder` (the slugs drop the parentheses: `rendertext-extensions`, `checkfolder`), index.md `install.md#installing`, `api.md#api-reference` (the page sets `{#api}`) and `#release-10`, and install.md the old setup.md page.',
      ['7 broken link(s)'],
    ),
  );

  // 4. Suggestions and tests for the checker.
  add(
    user(
      'Nice. Two things: when an anchor is wrong, suggest the closest id of that page (`did you mean #…?`), and give the checker tests — tests/test_check_links.py, on small folders the tests write.',
    ),
    step(undefined, [files.readAt(CHECKER, 'def check(folders):', 0, 25)]),
    step(undefined, [files.edit(CHECKER, 'import re\nimport sys\n', 'import difflib\nimport re\nimport sys\n')]),
    step(undefined, [files.edit(CHECKER, SUGGEST_OLD, SUGGEST_NEW)]),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"')]),
    step(
      'The tests call main() with a docs/ folder written in a temporary directory (monkeypatch.chdir, so the paths in the messages are short), and capsys for the output:',
      [files.write(CHECKER_TESTS, own('test_check_links.py'))],
    ),
    step(undefined, [bash(`python3 -m pytest ${CHECKER_TESTS} -v`)]),
    step(
      'test_links_in_code_are_not_checked fails: the script reads raw lines, so a link written inside a code span or a fenced block is checked, though it renders as code. Skip fenced blocks and blank code spans:',
      [files.edit(CHECKER, ID_RE_NEW, CODE_RE_NEW)],
      ['test_links_in_code_are_not_checked FAILED'],
    ),
    step(undefined, [files.edit(CHECKER, '\n\ndef check(folders):', `${PROSE_LINES}\n\ndef check(folders):`)]),
    step(undefined, [files.edit(CHECKER, CODE_OLD, CODE_NEW)]),
    step(undefined, [bash(`python3 -m pytest ${CHECKER_TESTS} -v`)]),
    step(undefined, [bash('python3 scripts/check_links.py docs; echo "exit $?"; python3 -m pytest -q')]),
    say(
      'The checker suggests the closest id of the target page (difflib, e.g. `no #instal in docs/guide.md (did you mean #install?)`), and no longer checks links inside fenced code or code spans, which the first test run caught. tests/test_check_links.py: 11 tests (good links, each kind of broken link, attr_list ids, code, usage). On docs/ the same 7 links are reported, 3 of them with a suggestion; the suite passes (405).',
      ['405 passed'],
    ),
  );

  // 5. The slug helpers move out of the toc extension.
  add(
    user(
      '`slugify`, `slugify_unicode` and `unique` are general helpers but live in the toc extension, and people import them from there. Move them to their own module, markdown/slugs.py, and keep the old imports working with a DeprecationWarning. No behaviour change.',
    ),
    step('Who uses them?', [bash('grep -rnE "slugify|unique|IDCOUNT_RE" markdown tests scripts')]),
    step(undefined, [files.readAt(TOC, 'from . import Extension', 0, 45)]),
    step('The three functions and IDCOUNT_RE move unchanged, with the imports they need:', [files.write(SLUGS, SLUGS_V1)]),
    step(undefined, [files.edit(TOC, TOC_IMPORTS_OLD, TOC_IMPORTS_NEW)]),
    step('In toc.py they become deprecated aliases (util.deprecated is what the package uses for this):', [
      files.edit(TOC, MOVED, ALIASES_V1),
    ]),
    step(undefined, [bash('python3 -m pytest -q')]),
    step(
      'A collection error: tests/test_toc.py imports `slugify_unicode` from the toc extension, and I gave no alias for it. It is documented as the `slugify` setting for Unicode ids, so users import it too:',
      [files.edit(TOC, ALIASES_V1, ALIASES)],
      ["cannot import name 'slugify_unicode'"],
    ),
    step(undefined, [bash('python3 -m pytest -q')]),
    step(
      'It passes, but the warnings summary has DeprecationWarnings raised inside toc.py itself, not only from the tests that use the old names: the extension still calls its own aliases.',
      [grep('slugify|unique\\(', TOC)],
      ['DeprecationWarning'],
    ),
    step('The default `slugify` setting and the call to unique() go to markdown.slugs directly:', [
      files.edit(TOC, DEFAULT_SLUGIFY_OLD, DEFAULT_SLUGIFY_NEW),
    ]),
    step(undefined, [files.edit(TOC, UNIQUE_CALL_OLD, UNIQUE_CALL_NEW)]),
    step(undefined, [bash('python3 -m pytest -q 2>&1 | tail -25')]),
    step(
      'What is left comes from tests/test_toc.py, which uses the old names. The tests move to the new module, and one test keeps the old names covered:',
      [
        files.edit(
          TOC_TESTS,
          'from markdown.extensions.toc import slugify, slugify_unicode, unique\n',
          'from markdown import slugs\nfrom markdown.extensions import toc\nfrom markdown.slugs import slugify, slugify_unicode, unique\n',
        ),
      ],
    ),
    step(undefined, [
      files.edit(
        TOC_TESTS,
        '    assert unique(slug, taken) == expected\n    assert expected in taken\n',
        `    assert unique(slug, taken) == expected\n    assert expected in taken\n${OLD_NAMES_TESTS}`,
      ),
    ]),
    step('Now no DeprecationWarning may escape anywhere:', [bash('python3 -m pytest -q -W error::DeprecationWarning')]),
    step(
      'No warning escaped, but the new test fails for `unique`: unique() adds the id it returns to the set it is given, so the second call, with the same set, found `intro_1` taken. Each call gets its own copy:',
      [files.edit(TOC_TESTS, OLD_NAMES_BODY, OLD_NAMES_BODY_FIXED)],
      ['test_old_names_warn[unique-args2]'],
    ),
    step('Does toc.py still import anything only the moved code used?', [grep('^import|^from|unicodedata|re\\.', TOC)]),
    step(undefined, [
      files.edit(
        TOC,
        'import re\nimport html\nimport unicodedata\nimport xml.etree.ElementTree as etree\n',
        'import re\nimport html\nimport xml.etree.ElementTree as etree\n',
      ),
    ]),
    step(undefined, [bash('python3 -m pytest -q -W error::DeprecationWarning && python3 scripts/check_links.py docs | tail -1')]),
    say(
      "markdown/slugs.py now holds slugify, slugify_unicode, unique and IDCOUNT_RE, unchanged. markdown/extensions/toc.py imports them from there (its `slugify` setting defaults to slugs.slugify) and keeps the three old names as aliases that warn \"'slugify' is deprecated. Import it from 'markdown.slugs' instead.\" (the first run caught the missing slugify_unicode alias as a collection error; the second showed toc.py still calling its own aliases). tests/test_toc.py uses the new module, and test_old_names_warn covers the aliases. The suite passes with DeprecationWarnings as errors (408).",
      ['408 passed'],
    ),
  );

  // 6. A TOC nesting bug.
  add(
    user(
      'The table of contents of docs/guide.md is wrong: "Usage" and "Configuration" show up nested inside "Install" instead of beside it. Fix it.',
    ),
    step(undefined, [bash(GUIDE_TOC)]),
    step(
      "Usage (h2) lands inside Install (h2) after Install's h3s: whenever the headings go back up a level. The nesting is built by nest_toc_tokens:",
      [grep('nest_toc_tokens', 'markdown')],
      ['<li><a href="#usage">Usage</a>'],
    ),
    step(undefined, [files.readAt(TOC, 'def nest_toc_tokens(toc_list):', 0, 65)]),
    step('The smallest case first, as a test of shapes, with the other ways headings go up and down:', [
      files.edit(
        TOC_TESTS,
        "\n\n@pytest.mark.parametrize('depth, levels', [",
        `${NESTING_TESTS}\n\n@pytest.mark.parametrize('depth, levels', [`,
      ),
    ]),
    step(undefined, [bash(`python3 -m pytest ${TOC_TESTS} -k nesting -v`)]),
    step(
      "Every case that goes back up fails, D ending under B: going up, nest_toc_tokens pops the open parents at the new heading's level or deeper, but the test says `current_level < p['level']`, so a parent at the same level stays open and the new heading becomes its child. It must be `<=`, as the comment above it says:",
      [files.edit(TOC, NEST_BUG, NEST_OK)],
      ["if current_level < p['level']:"],
    ),
    step(undefined, [bash(`python3 -m pytest ${TOC_TESTS} -k nesting -v`)]),
    step(undefined, [bash(GUIDE_TOC)]),
    step(undefined, [bash('python3 -m pytest -q')]),
    say(
      "Fixed in nest_toc_tokens (markdown/extensions/toc.py): when a heading goes back up, the open parents at its level or deeper are closed, but the comparison was `<` instead of `<=`, so the sibling at the same level stayed open and took the heading as a child (Usage under Install in docs/guide.md). tests/test_toc.py now tests six shapes of heading sequences (test_nesting); guide.md's TOC has Install, Usage and Configuration side by side. The suite passes (414).",
      ['414 passed'],
    ),
  );

  // 7. A quadratic id search.
  add(
    user(
      'Our CHANGELOG page (thousands of releases, each with its `### Fixed` and `### Added`) takes seconds to render since we turned the toc on. Find out why and make it fast; every id must stay exactly what it is today.',
    ),
    step('A page of that shape, timed without and with toc:', [files.write('scripts/time_changelog.py', own('time_changelog.py'))]),
    step(undefined, [bash('python3 scripts/time_changelog.py')]),
    step('Twice the releases, several times the time with toc: something quadratic. A profile:', [
      bash('python3 -m cProfile -s tottime scripts/time_changelog.py 1000 2>&1 | head -20'),
    ]),
    step('Nearly all of it is unique() and the regex match it calls:', [files.readAt(SLUGS, 'def unique(id, ids):', 3, 14)], ['(unique)']),
    step(
      'unique() starts again from `fixed_1` for every new "Fixed" heading: the n-th one tries n ids, so n headings cost n²/2 regex matches. The toc calls it once per heading with the document\'s set of ids:',
      [files.readAt(TOC, '    def run(self, doc):', 0, 20)],
    ),
    step(
      'A small class in slugs.py that gives the same ids but remembers, per base, the first number not known to be taken. It must still give exactly what unique() gives when ids like `intro_7` are already in the page:',
      [files.edit(SLUGS, '    ids.add(id)\n    return id\n', `    ids.add(id)\n    return id${UNIQUE_IDS}\n`)],
    ),
    step(undefined, [files.edit(TOC, RUN_IDS_OLD, RUN_IDS_NEW)]),
    step(undefined, [
      files.edit(TOC, UNIQUE_CALL_NEW, '                    el.attrib["id"] = ids.add(self.slugify(innertext, self.sep))\n'),
    ]),
    step(undefined, [bash('python3 scripts/time_changelog.py 1000 2000 4000')]),
    step('Linear now. The tests: random sequences of ids checked against unique() itself, and the long changelog, marked slow:', [
      files.edit(
        TOC_TESTS,
        '"""The toc extension: header ids (slugs, unique), the [TOC] marker, its settings, and toc_tokens."""\nimport pytest\n',
        '"""The toc extension: header ids (slugs, unique), the [TOC] marker, its settings, and toc_tokens."""\nimport random\nimport re\n\nimport pytest\n',
      ),
    ]),
    step(undefined, [
      files.edit(
        TOC_TESTS,
        `    assert result == getattr(slugs, name)(*fresh())\n`,
        `    assert result == getattr(slugs, name)(*fresh())\n${UNIQUE_IDS_TESTS}`,
      ),
    ]),
    step(undefined, [bash(`python3 -m pytest ${TOC_TESTS} -k "unique or changelog" -q`)]),
    step(
      'They pass, but pytest does not know the `slow` mark (PytestUnknownMarkWarning). Registered in pytest.ini, it can be deselected for quick runs:',
      [
        files.edit(
          'pytest.ini',
          'testpaths = tests\n',
          'testpaths = tests\nmarkers =\n    slow: long-running tests (deselect with -m "not slow")\n',
        ),
      ],
      ['PytestUnknownMarkWarning'],
    ),
    step(undefined, [bash('python3 -m pytest -q -m "not slow"')]),
    step(undefined, [bash('python3 -m pytest -q --durations=5')]),
    say(
      'unique() in markdown/slugs.py restarted from `fixed_1` for every repeated heading, so n headings with the same text cost n²/2 regex matches (the profile\'s top line). slugs.UniqueIds hands out the same ids but remembers, per base, the first number not known to be taken; the toc extension uses it for each page, so the changelog renders in linear time. unique() stays as it was. tests/test_toc.py: 25 seeded sequences check UniqueIds against unique(), and test_long_changelog (9,000 headings, marked `slow`, registered in pytest.ini) checks the ids stay unique. The suite passes (440); `-m "not slow"` skips the long one.',
      ['440 passed'],
    ),
  );

  // 8. Open tasks in the checker.
  add(
    user(
      'Let the checker also list the open tasks of the pages: with `--tasks`, print `file:line: open task: text` for every `- [ ]` item outside code, after the links. They are not failures.',
    ),
    step(undefined, [read(CHECKER)]),
    step(undefined, [files.edit(CHECKER, TASK_RE_OLD, TASK_RE_NEW)]),
    step(undefined, [files.edit(CHECKER, '\n\ndef main(argv):', `${OPEN_TASKS}\n\ndef main(argv):`)]),
    step(undefined, [files.edit(CHECKER, MAIN_OLD, MAIN_NEW)]),
    step(undefined, [files.edit(CHECKER, USAGE_OLD, USAGE_NEW)]),
    step(undefined, [bash('python3 scripts/check_links.py --tasks docs; echo "exit $?"')]),
    step(undefined, [files.edit(CHECKER_TESTS, '\n\ndef test_usage(capsys):', `${TASKS_TEST}\n\ndef test_usage(capsys):`)]),
    step(undefined, [bash(`python3 -m pytest ${CHECKER_TESTS} -v`)]),
    step(undefined, [bash('python3 -m pytest -q -m "not slow"')]),
    say(
      "`--tasks` lists every open task (`- [ ]`, `* [ ]`, `1. [ ]`…) outside fenced code and code spans, after the link report, as `file:line: open task: text`, with a count; the exit code stays the links'. On docs/ that is guide.md's two open items. A new test covers it (a task in a fenced block is not listed); the quick suite passes (440, the slow test deselected).",
      ['2 open task(s)', '440 passed, 1 deselected'],
    ),
  );

  // 9. Review.
  add(
    user('Before I commit: review everything we changed today, run everything once more, and give me a summary for the commit message.'),
    step(undefined, [files.readAt(TABLES, '        # Get alignment of columns', 0, 14)]),
    step(undefined, [read(TASKLIST)]),
    step(undefined, [read(SLUGS)]),
    step(undefined, [files.readAt(TOC, 'from . import Extension', 0, 20)]),
    step(undefined, [files.readAt(TOC, "                    if current_level <= p['level']:", 12, 20)]),
    step(undefined, [files.readAt(TOC, '    def run(self, doc):', 0, 20)]),
    step(undefined, [read(CHECKER)]),
    step(undefined, [read('pytest.ini')]),
    step(undefined, [bash('python3 -m pytest -v -W error::DeprecationWarning')]),
    step(undefined, [bash('python3 scripts/check_links.py --tasks docs; echo "exit $?"')]),
    step(undefined, [bash('python3 scripts/time_changelog.py 2000')]),
    say(
      'Reviewed; the suite passes (441, DeprecationWarnings as errors) and the checker reports the 7 broken links of docs/. Commit message:\n\ntables: strip the separator cells before reading their alignment\ntasklist: new extension, `[ ]` / `[x]` list items as disabled checkboxes (tight and loose lists)\nslugs: move slugify, slugify_unicode and unique out of the toc extension (old names deprecated)\ntoc: close parents at the same level when headings go back up; unique ids in linear time (slugs.UniqueIds)\nscripts: check_links.py (broken anchors and pages, suggestions, --tasks), time_changelog.py\ntests: tasklist, check_links, toc nesting, UniqueIds against unique, a slow long-changelog test',
      ['441 passed'],
    ),
  );

  writeScenario(
    'python-day',
    {
      about:
        "A working day on a checkout of Python-Markdown 3.4.1 (BSD-3-Clause; Debian's python3-markdown, fetched into the bench's cache and copied at run time, with two planted bugs: table alignment from padded separator rows, TOC nesting when headings go back up) with the docs team's own pytest suite (374 tests growing to 440), tools and pages. Nine related tasks: the alignment bug, a task-list extension with tests, a link checker for docs/ (a ModuleNotFoundError and a KeyError traceback on the way), its suggestions and tests, moving the slug helpers to markdown/slugs.py with deprecated aliases (a collection error, then warnings summaries), the TOC nesting bug (-k runs), a quadratic id search found with cProfile and made linear (a slow-marked test, PytestUnknownMarkWarning, -m and --durations), open tasks in the checker, and a review. Debian's python3 and pytest 7.2 (.python-version pins the system Python under pyenv). Window: 200,000 tokens. Built by bench/scenarios/build-python-day.ts.",
      model: { context_window: 200000, max_output: 8192 },
      'x-bench-source': [SOURCE],
      'x-bench-copy': [
        { from: PACKAGE_DIR, to: 'markdown', source: SOURCE.name, include: ['.py'] },
        { from: 'usr/share/doc/python3-markdown', to: '.', source: SOURCE.name, include: ['copyright'] },
      ],
      'x-bench-patch': [
        { path: TABLES, old: STRIP_OK, new: STRIP_BUG },
        { path: TOC, old: NEST_OK, new: NEST_BUG },
      ],
      'x-bench-check': CHECK,
      workspace: WORKSPACE,
      // The user's day: away a while before some messages (idlePattern.ts says from which published figures).
      turns: withIdlePattern(turns),
    },
    120,
  );
}

/**
 * The end state, with the real toolchain: the whole suite passes (the slow test included), both planted
 * bugs are fixed, the new extension and module work, and the checker reports docs/'s broken links.
 */
const CHECK = [
  'python3 -m pytest -q -p no:cacheprovider -W error::DeprecationWarning',
  String.raw`python3 -c "
import markdown
from markdown import slugs
t = markdown.markdown('| a | b |\n| :--- | ---: |\n| 1 | 2 |', extensions=['markdown.extensions.tables'])
assert 'text-align: right' in t and 'text-align: left' in t, t
md = markdown.Markdown(extensions=['markdown.extensions.toc'])
md.convert('# A\n## B\n### C\n## D')
assert [c['name'] for c in md.toc_tokens[0]['children']] == ['B', 'D'], md.toc_tokens
assert 'checkbox' in markdown.markdown('- [x] done', extensions=['markdown.extensions.tasklist'])
assert slugs.UniqueIds({'a'}).add('a') == 'a_1'
"`,
  'python3 scripts/check_links.py docs | grep -q "7 broken link(s)"',
].join(' && ');

build().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
