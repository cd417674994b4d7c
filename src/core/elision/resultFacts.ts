import type { ConversationEntry } from '../conversation/conversation';
import { normalizePath } from '../ledger/paths';
import type { ToolUseBlock } from '../model/types';
import { parsePatch } from '../tools/patchParser';

/**
 * What elision needs to know about one tool result in a generation, read from the generation itself: the
 * tool_use that asked for it (tool and arguments) and the result's first line, which is always Cairn's own
 * (the bracket and its sentence; a file's text starts on the second line). Nothing else is consulted, so
 * the same generation always gives the same facts, on a reopen too.
 */
export type ResultFact = ReadFact | ChangeFact | CommandFact | OtherFact;

interface FactBase {
  readonly id: string;
  /** Where the result is: entry index and block index in that entry's content. */
  readonly entry: number;
  readonly block: number;
  /** The bracket alone (a stub's or an edit's sentence left out): what an elided result keeps. */
  readonly bracket: string;
  /** The whole tool_result text the model was sent. */
  readonly text: string;
}

/** A read (full, or a stub of an earlier read): its file, lines and content hash. */
export interface ReadFact extends FactBase {
  readonly type: 'read';
  readonly path: string;
  readonly from: number;
  readonly to: number;
  readonly total: number;
  readonly sha: string;
  /** The earlier read a stub names ("Unchanged since #x"); undefined for a full read. */
  readonly stubOf?: string;
}

/** An edit, write or patch that changed files (a "No change." answer is not one). */
export interface ChangeFact extends FactBase {
  readonly type: 'change';
  /** Every path the change wrote or removed (a move's both ends). */
  readonly paths: readonly string[];
  /** The paths whose new content the diff shows (a deleted file shows none). */
  readonly shownPaths: readonly string[];
}

/** A command's output. */
export interface CommandFact extends FactBase {
  readonly type: 'command';
  readonly command: string;
}

/** Anything else: searches, recalls, MCP tools, errors, results already elided. Never superseded itself. */
export interface OtherFact extends FactBase {
  readonly type: 'other';
  /** Ids its text depends on (a same-result answer's first result). */
  readonly refersTo: readonly string[];
}

const READ_BRACKET = /^\[(#[0-9a-f]+) .+ lines (\d+)-(\d+) of (\d+) sha ([0-9a-f]+)\]/;
const STUB_SENTENCE = / Unchanged since (#[0-9a-f]+),/;
const SAME_SENTENCE = /^\[#[0-9a-f]+\] Same result as (#[0-9a-f]+)\.$/;
const ID_AT_START = /^\[(#[0-9a-f]+)[\] ]/;
/** The text an elided result carries after its bracket (see `elide.ts`). */
export const ELIDED_MARK = ' Elided: superseded by ';
/** The text a result the user dropped from the context carries after its bracket (`drop.ts`). */
export const DROPPED_MARK = ' Dropped from the context by the user; ';

/** Whether a result's first line is already one line (elided or dropped): nothing more to take out of it. */
export function isOneLine(firstLine: string): boolean {
  return firstLine.includes(ELIDED_MARK) || firstLine.includes(DROPPED_MARK);
}

const EDIT_TOOLS = new Set(['edit', 'multiedit', 'write', 'apply_patch']);

/** The facts of every tool result in `entries`, in conversation order. */
export function resultFacts(entries: readonly ConversationEntry[]): ResultFact[] {
  const uses = new Map<string, ToolUseBlock>();
  const facts: ResultFact[] = [];
  entries.forEach((entry, entryIndex) => {
    entry.message.content.forEach((block, blockIndex) => {
      if (block.type === 'tool_use') uses.set(block.id, block);
      if (block.type !== 'tool_result') return;
      const use = uses.get(block.tool_use_id);
      const fact = factOf(block.content, Boolean(block.is_error), use, entryIndex, blockIndex);
      if (fact) facts.push(fact);
    });
  });
  return facts;
}

function factOf(text: string, isError: boolean, use: ToolUseBlock | undefined, entry: number, block: number): ResultFact | undefined {
  const firstLine = text.split('\n', 1)[0] ?? '';
  const idMatch = ID_AT_START.exec(firstLine);
  if (!idMatch) return undefined;
  const id = idMatch[1]!;
  const closing = firstLine.indexOf(']');
  const bracket = firstLine.slice(0, closing + 1);
  const base = { id, entry, block, bracket, text };
  const other = (refersTo: readonly string[] = []): OtherFact => ({ ...base, type: 'other', refersTo });
  if (isError || !use || isOneLine(firstLine)) return other();
  const input = use.input && typeof use.input === 'object' ? (use.input as Record<string, unknown>) : {};
  if (use.name === 'read' && typeof input.path === 'string') {
    const read = READ_BRACKET.exec(firstLine);
    if (!read) return other(); // empty or binary: one line already, nothing to gain
    const stubOf = STUB_SENTENCE.exec(firstLine.slice(closing))?.[1];
    return {
      ...base,
      type: 'read',
      path: normalizePath(input.path),
      from: Number(read[2]),
      to: Number(read[3]),
      total: Number(read[4]),
      sha: read[5]!,
      ...(stubOf ? { stubOf } : {}),
    };
  }
  if (EDIT_TOOLS.has(use.name)) {
    if (firstLine.endsWith('] No change.')) return other();
    const touched = touchedPaths(use.name, input);
    return touched ? { ...base, type: 'change', ...touched } : other();
  }
  if (use.name === 'bash' && typeof input.command === 'string') return { ...base, type: 'command', command: input.command };
  const same = SAME_SENTENCE.exec(firstLine);
  return other(same ? [same[1]!] : []);
}

/** The paths an edit tool's arguments name; undefined when they cannot be read (the result then stays). */
function touchedPaths(tool: string, input: Record<string, unknown>): { paths: string[]; shownPaths: string[] } | undefined {
  if (tool !== 'apply_patch') {
    if (typeof input.path !== 'string') return undefined;
    const path = normalizePath(input.path);
    return { paths: [path], shownPaths: [path] };
  }
  if (typeof input.patch !== 'string') return undefined;
  try {
    const paths: string[] = [];
    const shownPaths: string[] = [];
    for (const op of parsePatch(input.patch)) {
      const path = normalizePath(op.path);
      paths.push(path);
      if (op.type === 'add') shownPaths.push(path);
      if (op.type === 'update') {
        const after = op.moveTo !== undefined ? normalizePath(op.moveTo) : path;
        if (after !== path) paths.push(after);
        shownPaths.push(after);
      }
    }
    return { paths, shownPaths };
  } catch {
    return undefined;
  }
}
