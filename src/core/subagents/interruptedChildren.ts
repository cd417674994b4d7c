import type { LoadedRecord } from '../journal/records';
import type { ToolUseBlock } from '../model/types';
import { taskResultText } from './outcomeText';
import { addUsage, type SubagentInfo, type SubagentOutcome } from '../subagentTypes';

/** A child whose `task` call a crash left unanswered: its result text, and its finish if none was written. */
export interface UnansweredChild {
  readonly info: SubagentInfo;
  readonly outcome: SubagentOutcome;
  /** True when the journal has no `subagent_finished` for it (it was cut off while it ran). */
  readonly cutOff: boolean;
  readonly text: string;
  readonly isError: boolean;
}

/**
 * For each dangling `task` call of a reopened session, what its child had done, from the journal: a child
 * that finished before the crash gives its answer as it would have; one that was cut off gives its
 * requests and spending (its own children's included, as a finished child's outcome counts them), its
 * result ids (recallable) and what it wrote last, as `interrupted`. `cutOff`: every child,
 * of any depth, without an end in the journal (the reopen writes one for each).
 */
export function unansweredChildren(
  records: readonly LoadedRecord[],
  dangling: readonly ToolUseBlock[],
): { answers: Map<string, UnansweredChild>; cutOff: UnansweredChild[] } {
  const started = new Map<string, SubagentInfo>();
  const finished = new Map<string, SubagentOutcome>();
  const progress = new Map<string, Progress>();
  for (const record of records) {
    if (record.type === 'subagent_started') {
      started.set(record.agent.id, record.agent);
      progress.set(record.agent.id, {
        requests: 0,
        ids: [],
        lastText: '',
        usage: { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 },
        cost: 0,
      });
    } else if (record.type === 'subagent_finished' && started.has(record.agent)) {
      finished.set(record.agent, record.outcome);
    } else if (record.type === 'subagent_record') {
      const seen = progress.get(record.agent);
      if (seen) noteInner(seen, record.record);
    }
  }
  // Only the session's own children answer its dangling calls (a grandchild's call id is its parent's
  // business, and may equal one of the session's); every child of any depth without an end is cut off.
  const wanted = new Set(dangling.map((use) => use.id));
  const answers = new Map<string, UnansweredChild>();
  const cutOff: UnansweredChild[] = [];
  const withDescendants = (id: string): Spent => {
    const own = progress.get(id)!;
    const spent: Spent = { requests: own.requests, usage: own.usage, cost: own.cost };
    for (const child of started.values()) {
      if (child.parent !== id) continue;
      // A finished child's outcome already counts its own children; a cut-off one is summed the same way.
      const done = finished.get(child.id);
      const its: Spent = done ? { requests: done.requests, usage: done.usage, cost: done.costUsd } : withDescendants(child.id);
      spent.requests += its.requests;
      spent.usage = addUsage(spent.usage, its.usage);
      spent.cost = spent.cost === null || its.cost === null ? null : spent.cost + its.cost;
    }
    return spent;
  };
  for (const info of started.values()) {
    const seen = progress.get(info.id)!;
    const done = finished.get(info.id);
    const spent = done ? undefined : withDescendants(info.id);
    const outcome: SubagentOutcome = done ?? {
      reason: 'interrupted',
      requests: spent!.requests,
      usage: spent!.usage,
      costUsd: spent!.cost === null ? null : Math.round(spent!.cost * 1e6) / 1e6,
      resultIds: seen.ids,
    };
    const { text, isError } = taskResultText(info, outcome, seen.lastText);
    const child = { info, outcome, cutOff: done === undefined, text, isError };
    if (child.cutOff) cutOff.push(child);
    if (info.parent === undefined && wanted.has(info.callId)) answers.set(info.callId, child);
  }
  return { answers, cutOff };
}

type Progress = { requests: number; ids: string[]; lastText: string; usage: SubagentOutcome['usage']; cost: number | null };
/** What an agent and every agent under it spent. */
type Spent = { requests: number; usage: SubagentOutcome['usage']; cost: number | null };

function noteInner(seen: Progress, inner: Extract<LoadedRecord, { type: 'subagent_record' }>['record']): void {
  if (inner.type === 'snapshot') {
    seen.requests++;
    const snapshot = inner.snapshot as {
      usage?: { input: number; cacheWrite: number; cacheRead: number; output: number } | null;
      cost?: { usd: number } | null;
    };
    const usage = snapshot.usage;
    if (usage) {
      seen.usage = addUsage(seen.usage, usage);
      if (snapshot.cost && seen.cost !== null) seen.cost += snapshot.cost.usd;
      else if (!snapshot.cost) seen.cost = null;
    }
  } else if (inner.type === 'user_message') {
    for (const block of inner.message.content) {
      if (block.type !== 'tool_result') continue;
      const text = block.content;
      const id = /^\[(#[0-9a-f]+)/.exec(text)?.[1];
      if (id && !seen.ids.includes(id)) seen.ids.push(id);
    }
  } else if (inner.type === 'assistant_message') {
    const text = inner.message.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n')
      .trim();
    if (text !== '') seen.lastText = text;
  }
}
