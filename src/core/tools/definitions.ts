import type { ToolDefinition } from '../model/types';
import { parsePatch } from './patchParser';
import { TOOL_FIELDS, type ToolName } from './args';
import { showHidden } from '../text/visibleText';

/**
 * What the model is told about each tool. Names and arguments are a contract (issue 2 §2); the
 * wording explains the answers the ledger gives so the model can use ids, stubs and recall well.
 */
const DESCRIPTIONS: Record<ToolName, { text: string; args: Record<string, string> }> = {
  apply_patch: {
    text:
      'Apply a patch that can add, delete, update and move several files at once, all or nothing. Format:\n' +
      '*** Begin Patch\n*** Add File: path\n+line\n*** Delete File: path\n*** Update File: path\n*** Move to: new/path (optional)\n' +
      '@@ optional line to find first\n context line\n-removed line\n+added line\n*** End Patch\n' +
      'Give about 3 lines of unchanged context around each change. If a hunk does not match, nothing is changed. ' +
      "The answer shows each file with its diff, in the patch's order.",
    args: { patch: 'The whole patch, from *** Begin Patch to *** End Patch.' },
  },
  bash: {
    text:
      'Run a command with bash -c in the workspace root. The answer is stdout and stderr as produced; a non-zero exit adds ' +
      '"[exit code N]", a timeout kills the command and adds "[timed out after N ms]". Long output keeps its head and tail; ' +
      'recall the result id for the rest.',
    args: { command: 'The command line.', timeout_ms: 'Milliseconds before the command is killed (default 120000).' },
  },
  edit: {
    text:
      'Replace old_string with new_string in a file. old_string must match the file exactly (whitespace included) and occur once, ' +
      'unless replace_all is true. The answer is the diff of the change. On failure nothing is changed.',
    args: {
      path: 'File path relative to the workspace root.',
      old_string: 'Exact text to replace.',
      new_string: 'Text to put in its place.',
      replace_all: 'Replace every occurrence (default false).',
    },
  },
  glob: {
    text: 'Find files whose path matches a glob pattern (** matches any folders). Paths are relative to the root, sorted; .gitignore is respected.',
    args: { pattern: 'Glob pattern, e.g. src/**/*.ts.', path: 'Folder to search under (default the root).' },
  },
  grep: {
    text: 'Search file contents with a regular expression. Lines are "path:line: text", sorted by path then line; .gitignore is respected.',
    args: {
      pattern: 'Regular expression.',
      path: 'Folder or file to search (default the root).',
      glob: 'Only files whose path matches this glob.',
      ignore_case: 'Match case-insensitively (default false).',
    },
  },
  list: {
    text: 'List one folder: entries sorted, folders end in "/".',
    args: { path: 'Folder relative to the root (default the root).' },
  },
  multiedit: {
    text: 'Apply several edits to one file in order, all or nothing. Each edit works on the result of the ones before it. The answer is the diff.',
    args: {
      path: 'File path relative to the workspace root.',
      edits: 'The edits, each {old_string, new_string, replace_all?}.',
    },
  },
  read: {
    text:
      'Read a text file. Lines are shown as "N: text", up to 2000 from offset. The bracket names the lines shown, the file\'s length and its sha. ' +
      'Reading an unchanged file again whose lines you were already shown answers with a short note naming the earlier result.',
    args: {
      path: 'File path relative to the workspace root.',
      offset: 'First line to show, 1-based (default 1).',
      limit: 'Most lines to show (default 2000).',
    },
  },
  recall: {
    text: 'Show a stored result again, in full, by its id (e.g. #a3f2), up to 2000 lines from offset. Use it for output that was cut or elided.',
    args: { id: 'The result id, with or without #.', offset: 'First line, 1-based (default 1).', limit: 'Most lines (default 2000).' },
  },
  write: {
    text: 'Write a whole file, creating folders as needed. Over an existing file the answer is the diff; a new file answers with its line count.',
    args: { path: 'File path relative to the workspace root.', content: 'The complete new content.' },
  },
};

function schemaFor(tool: ToolName): ToolDefinition['input_schema'] {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(TOOL_FIELDS[tool] as Record<string, { kind: string; required: boolean; min?: number }>)) {
    const description = DESCRIPTIONS[tool].args[name];
    if (field.kind === 'edits') {
      properties[name] = {
        type: 'array',
        description,
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            old_string: { type: 'string' },
            new_string: { type: 'string' },
            replace_all: { type: 'boolean' },
          },
          required: ['old_string', 'new_string'],
          additionalProperties: false,
        },
      };
    } else if (field.kind === 'integer') {
      properties[name] = { type: 'integer', minimum: field.min, description };
    } else {
      properties[name] = { type: field.kind, description };
    }
    if (field.required) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = Object.freeze(
  (Object.keys(DESCRIPTIONS) as ToolName[])
    .sort()
    .map((name) => ({ name, description: DESCRIPTIONS[name].text, input_schema: schemaFor(name) })),
);

const READ_ONLY = new Set(['read', 'list', 'glob', 'grep', 'recall']);

/** Tools that change nothing: the loop may run them without asking and side by side. */
export function isReadOnlyTool(name: string): boolean {
  return READ_ONLY.has(name);
}

const KEY_ARGUMENT: Record<ToolName, string> = {
  read: 'path',
  write: 'path',
  edit: 'path',
  multiedit: 'path',
  apply_patch: 'patch',
  list: 'path',
  glob: 'pattern',
  grep: 'pattern',
  bash: 'command',
  recall: 'id',
};

/** The call's key argument in one short line, for the UI (`read src/app.ts`, `bash npm test`). */
export function summarizeToolCall(name: string, input: unknown): string {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  // web_fetch is a session tool (core/web), named here so the chat's line shows the URL it fetches.
  if (name === 'web_fetch' && typeof record.url === 'string') return cutLine(`web_fetch ${record.url}`);
  if (!(name in KEY_ARGUMENT)) return name;
  const tool = name as ToolName;
  let key: unknown = record[KEY_ARGUMENT[tool]];
  if (tool === 'apply_patch' && typeof key === 'string') {
    // The parser that applies the patch names its files (a regex once read lines another way and hid some).
    try {
      key = parsePatch(key)
        .map((op) => (op.type === 'update' && op.moveTo !== undefined ? `${op.path} → ${op.moveTo}` : op.path))
        .join(', ');
    } catch {
      key = 'patch';
    }
  }
  if (tool === 'list' && key === undefined) key = '.';
  if (tool === 'grep' && typeof key === 'string' && typeof record.path === 'string') key = `${key} in ${record.path}`;
  if (tool === 'read' && typeof record.offset === 'number') key = `${String(key)}:${record.offset}`;
  const text = cutLine(typeof key === 'string' ? key : key === undefined ? '' : JSON.stringify(key));
  return text ? `${tool} ${text}` : tool;
}

function cutLine(line: string): string {
  // Hidden characters become visible before whitespace is folded (\s would fold a \r or U+2028 away).
  const text = showHidden(line).replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
