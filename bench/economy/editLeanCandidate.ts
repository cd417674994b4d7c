/**
 * A candidate measure (issue 30 §4), measured through the bench's `wrapTools` hook and not built: an edit
 * answers with only what the model did not write itself. The spec's answer (§5) is the unified diff with
 * three lines of context; of that, the model wrote every `-` line (its `old_string`) and every `+` line
 * (its `new_string`) moments ago. What it cannot know is where the change landed (the hunk headers), the
 * lines around it (context), and any line the tool changed beyond its own text. The lean answer keeps the
 * headers and those unexpected lines, drops the context and the model's own lines, and says so, with the
 * result's id for the full diff (`recall`). On the python-day side by side (Session 10) edit answers were the one
 * kind of result Cairn carried more of than opencode (357k tokens against 18k).
 *
 * It changes a result the spec defines, so even if it wins it could only ever be a setting, never the
 * conformance default. The needs gate charges any text the model then lacks (a context line a later step
 * relies on) as a retrieval, so dropping context is not free in the figures.
 */
import type { LedgerResult, ToolCall } from '../../src/core/ledger/types';
import type { StrategyHooks } from './strategies';

type Wrapped = ReturnType<NonNullable<StrategyHooks['wrapTools']>>;
type Ledger = Parameters<NonNullable<StrategyHooks['wrapTools']>>[0];

export function editLeanTools(ledger: Ledger): Wrapped {
  return {
    state: () => ledger.state(),
    answerWithoutRunning: (call, message, answer) => ledger.answerWithoutRunning(call, message, answer),
    async execute(call: ToolCall, context) {
      const result = await ledger.execute(call, context);
      if (result.kind !== 'diff' || result.isError) return result;
      const own = modelWrittenLines(call);
      return own ? leanEditAnswer(result, own) : result;
    },
  };
}

/** The lines the model itself supplied, as the old and new sides; undefined for a call this measure leaves alone. */
export function modelWrittenLines(
  call: ToolCall,
): { readonly removed: ReadonlySet<string>; readonly added: ReadonlySet<string> } | undefined {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const pairs: Array<{ old: unknown; new: unknown }> = [];
  if (call.name === 'edit') pairs.push({ old: input['old_string'], new: input['new_string'] });
  else if (call.name === 'multiedit' && Array.isArray(input['edits'])) {
    for (const edit of input['edits'] as unknown[]) {
      const e = (edit ?? {}) as Record<string, unknown>;
      pairs.push({ old: e['old_string'], new: e['new_string'] });
    }
  } else if (call.name === 'write') pairs.push({ old: '', new: input['content'] });
  else return undefined;
  const removed = new Set<string>();
  const added = new Set<string>();
  for (const pair of pairs) {
    if (typeof pair.old !== 'string' || typeof pair.new !== 'string') return undefined;
    for (const line of pair.old.split('\n')) removed.add(line);
    for (const line of pair.new.split('\n')) added.add(line);
  }
  return { removed, added };
}

/**
 * The diff answer with the context and the model's own lines left out. A `write` over an existing file keeps
 * its `-` lines: the model wrote the new content, not the old. A multi-file answer (a patch) keeps each
 * file's own bracket line. Returns the result unchanged when nothing would be left out.
 */
export function leanEditAnswer(
  result: LedgerResult,
  own: { readonly removed: ReadonlySet<string>; readonly added: ReadonlySet<string> },
): LedgerResult {
  const [head, ...lines] = result.text.split('\n');
  const kept: string[] = [];
  let dropped = 0;
  for (const line of lines) {
    const mark = line[0];
    const rest = line.slice(1);
    const leaveOut =
      mark === ' ' || line.startsWith('\\ No newline') || (mark === '+' && own.added.has(rest)) || (mark === '-' && own.removed.has(rest));
    if (leaveOut) dropped++;
    else kept.push(line);
  }
  if (dropped === 0) return result;
  const note = `Applied as you wrote it; where it landed below (context and your own lines left out, recall ${result.id} shows the diff):`;
  return { ...result, text: [`${head} ${note}`, ...kept].join('\n') };
}
