/**
 * The YAML frontmatter of a SKILL.md: the subset the Agent Skills format uses, read strictly. Top-level
 * `key: value` pairs whose values are plain, single- or double-quoted scalars, or `|` / `>` block
 * scalars; `#` comments and blank lines. Anything else (nested maps, lists, anchors) is reported as
 * unsupported rather than guessed at, so a skill never loads with a field read wrong.
 */
export type FrontmatterValue = string | boolean;

export type FrontmatterResult =
  | { readonly ok: true; readonly fields: ReadonlyMap<string, FrontmatterValue>; readonly body: string }
  | { readonly ok: false; readonly problem: string };

export function parseFrontmatter(text: string): FrontmatterResult {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) {
    return { ok: false, problem: 'SKILL.md must start with a YAML frontmatter block: a line `---`, the fields, and a closing `---`.' };
  }
  const end = normalized.indexOf('\n---', 3);
  const closing = end >= 0 ? normalized.slice(end + 4).match(/^[ \t]*(\n|$)/) : null;
  if (end < 0 || !closing) return { ok: false, problem: 'The frontmatter has no closing `---` line.' };
  const lines = normalized.slice(4, end + 1).split('\n');
  const body = normalized.slice(end + 4 + closing[0].length);
  const fields = new Map<string, FrontmatterValue>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const match = line.match(/^([A-Za-z0-9_-]+):(?:[ \t]+(.*))?$/);
    if (!match) return { ok: false, problem: `Frontmatter line ${i + 2} is not \`key: value\`: ${JSON.stringify(line.slice(0, 80))}.` };
    const key = match[1]!;
    const raw = (match[2] ?? '').trim();
    if (fields.has(key)) return { ok: false, problem: `The field \`${key}\` appears twice in the frontmatter.` };
    if (raw === '|' || raw === '>' || raw === '|-' || raw === '>-') {
      const block: string[] = [];
      while (i + 1 < lines.length && (/^[ \t]+/.test(lines[i + 1]!) || lines[i + 1] === '')) block.push(lines[++i]!);
      const indent = Math.min(...block.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)![0].length));
      const content = block.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
      while (content.length > 0 && content[content.length - 1] === '') content.pop();
      const joined = raw.startsWith('|') ? content.join('\n') : content.join(' ').replace(/ {2,}/g, ' ');
      fields.set(key, joined);
      continue;
    }
    if (raw === '' && i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1]!)) {
      return { ok: false, problem: `The field \`${key}\` holds a nested value; the skill format's fields are single values.` };
    }
    const value = scalar(raw);
    if (value === undefined)
      return { ok: false, problem: `The value of \`${key}\` is not a plain or quoted string: ${JSON.stringify(raw.slice(0, 80))}.` };
    fields.set(key, value);
  }
  return { ok: true, fields, body };
}

function scalar(raw: string): FrontmatterValue | undefined {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"\s*(#.*)?$/.test(raw)) return undefined;
    try {
      return JSON.parse(raw.replace(/\s*(#.*)?$/, '')) as string;
    } catch {
      return undefined;
    }
  }
  if (raw.startsWith("'")) {
    const m = raw.match(/^'((?:[^']|'')*)'\s*(#.*)?$/);
    return m ? m[1]!.replace(/''/g, "'") : undefined;
  }
  if (/^[[{&*!|>%@`]/.test(raw)) return undefined;
  // A plain scalar ends at ` #` (a comment).
  return raw.replace(/\s+#.*$/, '');
}
