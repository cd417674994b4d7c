/**
 * The change an edit, a write or a patch will make, as diff lines (`@@`, `-`, `+`, ` `) for the approval
 * prompt, worked out from the call's input alone (no file is read to ask): an edit's old text as `-` lines
 * and its new text as `+` lines, a write's whole new content as `+` lines, a patch as its own hunks. The
 * chat colours the lines; the person approving sees what will change before "Allow once".
 */

function field(input: unknown, name: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
}

/** Each line of `text` with `prefix`; a final newline ends the last line rather than starting another. */
function prefixed(prefix: string, text: string): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return text === '' ? [] : body.split('\n').map((line) => `${prefix}${line}`);
}

function editLines(spec: unknown, label: string): string[] {
  const oldText = field(spec, 'old_string');
  const newText = field(spec, 'new_string');
  if (typeof oldText !== 'string' || typeof newText !== 'string') return [];
  const every = field(spec, 'replace_all') === true ? ' (every occurrence)' : '';
  return [`@@ ${label}${every} @@`, ...prefixed('-', oldText), ...prefixed('+', newText)];
}

/** The preview for one call, or undefined for a tool that changes no file or an input without the fields. */
export function changePreview(tool: string, input: unknown): string | undefined {
  let lines: string[] = [];
  switch (tool) {
    case 'edit':
      lines = editLines(input, 'edit');
      break;
    case 'multiedit': {
      const edits = field(input, 'edits');
      if (Array.isArray(edits)) lines = edits.flatMap((spec, i) => editLines(spec, `edit ${i + 1} of ${edits.length}`));
      break;
    }
    case 'write': {
      const content = field(input, 'content');
      if (typeof content === 'string') lines = ['@@ the whole new content @@', ...prefixed('+', content)];
      break;
    }
    case 'apply_patch': {
      const patch = field(input, 'patch');
      // The patch is a diff already: its `*** … File:` headers, `@@` and `+`/`-`/` ` lines, without the envelope.
      if (typeof patch === 'string') lines = patch.split('\n').filter((line) => !/^\*\*\* (Begin|End) Patch\s*$/.test(line));
      break;
    }
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length > 0 ? lines.join('\n') : undefined;
}
