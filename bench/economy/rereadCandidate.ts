/**
 * A candidate measure (issue 16 §3), measured through the bench's `wrapTools` hook and not built into the
 * ledger: a re-read of a file whose only changes since the model last saw it in full were the session's
 * own edits is answered with a stub naming that read and the edits (whose diffs the model was shown),
 * instead of the file again. The model then has the file as its earlier read with those diffs applied.
 *
 * The stub keeps the ledger's read bracket and says `Unchanged since #READ, apart from …`, so elision
 * reads it as a stub of that read and keeps the read while the stub is in the context; the edits' diffs
 * are not superseded by a stub (only by a later full read). The ledger itself still counts the re-read as
 * a full read (its table and its later stubs name the new id), which a built measure would not: a later
 * unchanged read is answered "Unchanged since" the stub's id, one more hop for the model. The needs gate
 * charges any text the model then lacks as a retrieval.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LedgerResult, ToolCall } from '../../src/core/ledger/types';
import type { StrategyHooks } from './strategies';

type Wrapped = ReturnType<NonNullable<StrategyHooks['wrapTools']>>;
type Ledger = Parameters<NonNullable<StrategyHooks['wrapTools']>>[0];

interface ShownRead {
  readonly id: string;
  readonly sha: string;
  /** The read's arguments other than the path (its window), as JSON: a stub answers only the same window. */
  readonly window: string;
}

interface OwnEdit {
  readonly id: string;
  readonly before: string;
  readonly after: string;
}

const EDIT_TOOLS = new Set(['edit', 'multiedit', 'write']);

export function rereadStubTools(ledger: Ledger, workspaceDir: string): Wrapped {
  const shown = new Map<string, ShownRead>();
  const edits = new Map<string, OwnEdit[]>();
  const shaOf = async (path: string): Promise<string | undefined> => {
    const content = await readFile(resolve(workspaceDir, path)).catch(() => undefined);
    return content ? createHash('sha256').update(content).digest('hex') : undefined;
  };
  return {
    state: () => ledger.state(),
    answerWithoutRunning: (call, message, answer) => ledger.answerWithoutRunning(call, message, answer),
    async execute(call: ToolCall, context) {
      const input = (call.input ?? {}) as { path?: unknown; offset?: unknown; limit?: unknown };
      const path = typeof input.path === 'string' ? input.path.replace(/^\.\//, '') : undefined;
      if (path === undefined) return ledger.execute(call, context);
      if (EDIT_TOOLS.has(call.name)) {
        const before = await shaOf(path);
        const result = await ledger.execute(call, context);
        const after = await shaOf(path);
        if (!result.isError && before && after && before !== after)
          edits.set(path, [...(edits.get(path) ?? []), { id: result.id, before, after }]);
        return result;
      }
      if (call.name !== 'read') return ledger.execute(call, context);
      const result = await ledger.execute(call, context);
      const sha = await shaOf(path);
      if (result.kind !== 'full' || result.isError || !sha) return result;
      const window = JSON.stringify({ offset: input.offset ?? null, limit: input.limit ?? null });
      const earlier = shown.get(path);
      const chain = edits.get(path) ?? [];
      if (earlier && earlier.window === window && onlyOwnEdits(earlier.sha, chain, sha)) return stubbed(result, earlier.id, chain);
      shown.set(path, { id: result.id, sha, window });
      edits.set(path, []);
      return result;
    },
  };
}

/** The edits lead from the read's content to the file as it is, each starting where the last ended. */
function onlyOwnEdits(readSha: string, chain: readonly OwnEdit[], now: string): boolean {
  if (chain.length === 0) return false;
  let at = readSha;
  for (const edit of chain) {
    if (edit.before !== at) return false;
    at = edit.after;
  }
  return at === now;
}

function stubbed(result: LedgerResult, readId: string, chain: readonly OwnEdit[]): LedgerResult {
  const ids = chain.map((e) => e.id).join(', ');
  const text = `${result.bracket} Unchanged since ${readId}, apart from your edits ${ids}: their diffs show every change since. recall ${result.id} shows the file as it is now.`;
  return { ...result, kind: 'read-stub', text, refersTo: [readId, ...chain.map((e) => e.id)] };
}
