import type { AssistantBlock, UserBlock } from '../model/types';
import type {
  AssistantMessageRecord,
  CompactionUndoneRecord,
  GenerationStartedRecord,
  JournalRecord,
  JournalRecordType,
  NoticeRecord,
  RunFailedRecord,
  SessionStartedRecord,
  UserMessageRecord,
} from './records';
import { titleFrom } from './sessionMeta';

/**
 * A session as Markdown a person can read or share: the conversation as the model saw it, each tool call
 * with its result's bracket, each result's text in a collapsible block. The journal holds no secrets (the
 * API key never enters it), so neither does this.
 */

type MessageRecord = UserMessageRecord | AssistantMessageRecord;
type Item =
  | { readonly kind: 'message'; readonly record: MessageRecord }
  | { readonly kind: 'notice'; readonly record: NoticeRecord }
  | { readonly kind: 'failure'; readonly record: RunFailedRecord }
  | { readonly kind: 'generation'; readonly record: GenerationStartedRecord }
  | { readonly kind: 'undone'; readonly record: CompactionUndoneRecord };

/** The record types an export reads; results and snapshots are not needed (messages carry what was seen). */
export const EXPORTED_TYPES: readonly JournalRecordType[] = [
  'session_started',
  'user_message',
  'assistant_message',
  'notice',
  'run_failed',
  'generation_started',
  'compaction_undone',
];

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string, info = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function collapsible(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** Orders the conversation: a later record for the same place replaces the earlier one where it stood. */
function itemsOf(records: Iterable<JournalRecord>): { header: SessionStartedRecord | undefined; items: Item[] } {
  let header: SessionStartedRecord | undefined;
  const items: Item[] = [];
  const byPlace = new Map<string, number>();
  for (const record of records) {
    switch (record.type) {
      case 'session_started':
        header ??= record;
        break;
      case 'user_message':
      case 'assistant_message': {
        const place = record.index === undefined ? undefined : `${record.generation ?? 0}:${record.index}`;
        const at = place === undefined ? undefined : byPlace.get(place);
        if (at !== undefined) items[at] = { kind: 'message', record };
        else {
          if (place !== undefined) byPlace.set(place, items.length);
          items.push({ kind: 'message', record });
        }
        break;
      }
      case 'notice':
        items.push({ kind: 'notice', record });
        break;
      case 'run_failed':
        items.push({ kind: 'failure', record });
        break;
      case 'generation_started':
        // A new generation numbers its messages from 0 again.
        byPlace.clear();
        items.push({ kind: 'generation', record });
        break;
      case 'compaction_undone':
        items.push({ kind: 'undone', record });
        break;
      default:
        break;
    }
  }
  return { header, items };
}

function resultsOf(items: readonly Item[]): Map<string, { content: string; isError: boolean }> {
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const item of items) {
    if (item.kind !== 'message' || item.record.type !== 'user_message') continue;
    for (const block of item.record.message.content) {
      if (block.type === 'tool_result') results.set(block.tool_use_id, { content: block.content, isError: block.is_error === true });
    }
  }
  return results;
}

const INLINE_INPUT_CHARS = 160;

function renderAssistant(blocks: readonly AssistantBlock[], results: ReturnType<typeof resultsOf>): string[] {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'thinking':
        parts.push(collapsible('Thinking', fenced(block.thinking)));
        break;
      case 'redacted_thinking':
        parts.push('_(Redacted thinking.)_');
        break;
      case 'tool_use': {
        const input = JSON.stringify(block.input) ?? 'null';
        const result = results.get(block.id);
        const newline = result ? result.content.indexOf('\n') : -1;
        const bracket = result ? (newline < 0 ? result.content : result.content.slice(0, newline)) : undefined;
        const shownInput = input.length <= INLINE_INPUT_CHARS ? input : `${input.slice(0, INLINE_INPUT_CHARS - 1)}…`;
        const head = `**Tool ${inlineCode(block.name)}** ${inlineCode(shownInput)}`;
        parts.push(
          bracket === undefined
            ? `${head} — _no result was recorded_`
            : `${head} → ${inlineCode(bracket)}${result?.isError ? ' (error)' : ''}`,
        );
        const inside: string[] = [];
        if (input.length > INLINE_INPUT_CHARS) inside.push(`Input:\n\n${fenced(JSON.stringify(block.input, null, 2), 'json')}`);
        if (result) inside.push(fenced(result.content));
        if (inside.length > 0) parts.push(collapsible(`Result as the model saw it${bracket ? `: ${bracket}` : ''}`, inside.join('\n\n')));
        break;
      }
    }
  }
  return parts;
}

function renderUser(blocks: readonly UserBlock[]): string[] {
  // Tool results are shown with the call they answer; only what the user (or Cairn) wrote is shown here.
  return blocks.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : ''));
}

/** The Markdown of a session's records (full or as a reopen returns them: bodies are not needed). */
export function renderSessionMarkdown(records: Iterable<JournalRecord>): string {
  const { header, items } = itemsOf(records);
  const results = resultsOf(items);
  const firstUser = items.find(
    (i): i is { kind: 'message'; record: UserMessageRecord } =>
      i.kind === 'message' && i.record.type === 'user_message' && titleFrom(i.record) !== undefined,
  );
  const title = (firstUser && titleFrom(firstUser.record)) || 'Cairn session';
  const out: string[] = [`# ${title}`];
  if (header) {
    out.push(
      [
        `- Session: ${inlineCode(header.sessionId)}`,
        `- Started: ${header.created}`,
        `- Workspace: ${inlineCode(header.workspace)}`,
        `- Model: ${inlineCode(header.model)}`,
      ].join('\n'),
    );
  }
  out.push('_Tool results are shown as the model saw them; the journal exported beside this file holds every result in full._');
  for (const item of items) {
    switch (item.kind) {
      case 'message': {
        const record = item.record;
        if (record.type === 'user_message') {
          const texts = renderUser(record.message.content);
          if (texts.length === 0) break;
          out.push(record.synthetic ? '## Cairn (on the user’s side)' : '## User', ...texts);
        } else {
          out.push('## Assistant', ...renderAssistant(record.message.content, results));
          if (record.incomplete) out.push('_The response was interrupted here; it is kept exactly as it arrived._');
        }
        break;
      }
      case 'notice':
        out.push(`> **Notice (${item.record.level}, ${item.record.kind}):** ${item.record.message.replace(/\n/g, '\n> ')}`);
        break;
      case 'failure': {
        const { kind, message, advice } = item.record;
        const text = advice && !message.includes(advice) ? `${message} ${advice}` : message;
        out.push(`> **The run failed (${kind}):** ${text.replace(/\n/g, '\n> ')}`);
        break;
      }
      case 'generation': {
        out.push('---', `## Compacted: generation ${item.record.generation} begins`);
        // Compaction's detail carries the summary the next generation opens with (see compaction/generation.ts).
        const detail = item.record.detail as { summary?: unknown; filesTable?: unknown } | null | undefined;
        if (detail && typeof detail.summary === 'string') {
          const table = typeof detail.filesTable === 'string' && detail.filesTable !== '' ? `\n\n${detail.filesTable}` : '';
          out.push(collapsible('Summary', `${detail.summary}${table}`));
        }
        break;
      }
      case 'undone':
        out.push(`_The compaction that started generation ${item.record.generation} was undone._`);
        break;
    }
  }
  return `${out.join('\n\n')}\n`;
}
