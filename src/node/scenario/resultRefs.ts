/**
 * `{result:K}` in a scripted tool call stands for the id of the K-th distinct tool result the server
 * has received this session. The ids are read from the requests as a model would read them: the
 * `[#hex` at the start of each `tool_result`'s text.
 */

const RESULT_ID = /^\[#([0-9a-f]+)/;
const REFERENCE = /\{result:(-?\d+)\}/g;

export class ToolResultIds {
  private readonly ordered: string[] = [];
  private readonly seen = new Set<string>();

  /** Every distinct id seen so far, in the order first seen. */
  get all(): readonly string[] {
    return this.ordered;
  }

  /** Reads the ids of every `tool_result` in a request's messages, in conversation order. */
  observe(messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const message of messages) {
      const content = (message as { content?: unknown } | null)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        const b = block as { type?: unknown; content?: unknown } | null;
        if (b?.type !== 'tool_result') continue;
        const id = RESULT_ID.exec(firstText(b.content))?.[1];
        if (id !== undefined && !this.seen.has(`#${id}`)) {
          this.seen.add(`#${id}`);
          this.ordered.push(`#${id}`);
        }
      }
    }
  }

  /** K ≥ 1 counts from the first result, K ≤ -1 from the latest; undefined when there is no such result. */
  resolve(k: number): string | undefined {
    if (k === 0) return undefined;
    return k > 0 ? this.ordered[k - 1] : this.ordered[this.ordered.length + k];
  }
}

/**
 * Replaces every `{result:K}` inside the strings of a tool input. An unknown reference is left as
 * a readable marker (`{result:5 unknown: 2 results seen}`) and reported through `onUnknown`.
 */
export function substituteResultRefs(input: unknown, ids: ToolResultIds, onUnknown: (reference: string) => void): unknown {
  if (typeof input === 'string') {
    return input.replace(REFERENCE, (match, k: string) => {
      const id = ids.resolve(Number(k));
      if (id !== undefined) return id;
      onUnknown(match);
      return `{result:${k} unknown: ${ids.all.length} results seen}`;
    });
  }
  if (Array.isArray(input)) return input.map((item) => substituteResultRefs(item, ids, onUnknown));
  if (typeof input === 'object' && input !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) out[key] = substituteResultRefs(value, ids, onUnknown);
    return out;
  }
  return input;
}

function firstText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    for (const block of content) {
      const b = block as { type?: unknown; text?: unknown } | null;
      if (b?.type === 'text' && typeof b.text === 'string') return b.text;
    }
  }
  return '';
}
