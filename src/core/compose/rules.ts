import type { TextBlock } from '../model/types';
import { utf8Bytes } from '../text/utf8Bytes';

/** One rules file as the model is shown it. */
export interface RulesFile {
  /** `global` = the user's `~/.cairn/AGENTS.md`; `project` = a workspace folder's file. */
  scope: 'global' | 'project';
  /** Stable display path, also the file's identity across reloads (`~/.cairn/AGENTS.md`, `AGENTS.md`, `app/CLAUDE.md`). */
  path: string;
  text: string;
}

/** Port: reads the rules files in their fixed order (global first, then each folder's AGENTS.md, CLAUDE.md); absent files are left out. */
export interface RulesSource {
  load(): Promise<RulesFile[]>;
}

/** No rules files (tests, and sessions that read none). The files on disk: `FileRulesSource` (`src/node/fileRulesSource.ts`). */
export const noRules: RulesSource = { load: async () => [] };

/** The system-part text of one rules file: a heading naming it, then its text unchanged. */
export function renderRulesFile(file: RulesFile): string {
  const whose = file.scope === 'global' ? "the user's global rules" : 'rules of this workspace';
  return `# ${file.path} (${whose})\n\n${file.text}`;
}

export type RulesChange = 'added' | 'changed' | 'removed';

/**
 * A rules change as a length-delimited envelope (like the skill envelopes of seed 000): `bytes` is
 * the UTF-8 length of the body between the opening line's newline and the closing line's newline,
 * so a body containing something that looks like a closing tag cannot end it early.
 */
export function rulesEnvelope(path: string, change: RulesChange, body: string): TextBlock {
  const text = `<cairn-rules path="${escapeAttribute(path)}" state="${change}" bytes="${utf8Bytes(body)}">\n${body}\n</cairn-rules>`;
  return { type: 'text', text };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Envelopes for what differs between the rules the model already has (`known`, by path) and the
 * files now on disk (`current`): removals first, then additions and changes in the fixed order.
 */
export function rulesDeltaBlocks(known: ReadonlyMap<string, string>, current: readonly RulesFile[]): TextBlock[] {
  const blocks: TextBlock[] = [];
  const now = new Map(current.map((file) => [file.path, file.text]));
  for (const path of known.keys()) if (!now.has(path)) blocks.push(rulesEnvelope(path, 'removed', ''));
  for (const file of current) {
    const before = known.get(file.path);
    if (before === undefined) blocks.push(rulesEnvelope(file.path, 'added', file.text));
    else if (before !== file.text) blocks.push(rulesEnvelope(file.path, 'changed', file.text));
  }
  return blocks;
}

/** The files a delta names, for its decision: `AGENTS.md changed, CLAUDE.md removed` (removals first, as the delta). */
export function describeRulesChanges(known: ReadonlyMap<string, string>, current: ReadonlyArray<readonly [string, string]>): string {
  const now = new Map(current);
  const parts: string[] = [];
  for (const path of known.keys()) if (!now.has(path)) parts.push(`${path} removed`);
  for (const [path, text] of current) {
    const before = known.get(path);
    if (before === undefined) parts.push(`${path} added`);
    else if (before !== text) parts.push(`${path} changed`);
  }
  return parts.join(', ');
}
