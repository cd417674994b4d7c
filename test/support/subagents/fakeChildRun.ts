/**
 * A child agent's run (issue 19) written two ways for the host's tests: the events the session emits
 * live, and the journal records the same run leaves, so a test can check that the chat rebuilt from the
 * journal shows what the live chat showed. Fake by construction: built by hand, no model, no loop.
 */
import type { AgentEvent } from '../../../src/core/agent/events';
import type { RequestSnapshot } from '../../../src/core/compose/snapshot';
import type { JournalRecord } from '../../../src/core/journal/records';
import type { SubagentInfo, SubagentOutcome } from '../../../src/core/subagentTypes';

export interface FakeChildRun {
  readonly info: SubagentInfo;
  /** The parent's `task` call, its result and everything the child did, as live events. */
  readonly events: AgentEvent[];
  /** The same run in the journal (the parent's message that calls `task` first). */
  readonly records: JournalRecord[];
}

/** A snapshot with usage and a price: `input` uncached tokens, `cacheRead` cached, `output` out, `usd` cost. */
export function fakeChildSnapshot(
  index: number,
  usage: { input: number; cacheRead: number; output: number; usd: number },
): RequestSnapshot {
  return {
    version: 1,
    index,
    time: '2026-12-02T04:00:00.000Z',
    model: 'claude-sonnet-4-5',
    generation: 0,
    purpose: 'main',
    maxTokens: 8000,
    sources: [],
    bytes: { tools: 0, system: 0, messages: 0, total: 0 },
    toolDefinitionBytes: 0,
    messageCount: 1,
    messageHashes: [],
    breakpoints: [],
    estimate: { tokens: 0, rawTokens: 0, runTokens: 0, ratio: 1, runRatio: 1, strategy: 'fake', confidence: 'low' },
    decisions: [],
    cacheBreak: null,
    usage: { input: usage.input, cacheWrite: 0, cacheRead: usage.cacheRead, output: usage.output },
    cacheHitShare: usage.cacheRead / (usage.input + usage.cacheRead),
    cost: { usd: usage.usd, input: 0, cacheWrite: 0, cacheRead: 0, output: 0, key: 'fake' } as unknown as RequestSnapshot['cost'],
  };
}

let seq = 100;
const at = () => ({ seq: seq++, at: 0 });

/**
 * Child `id` (kind from the id) answering the parent's call `taskCallId`: it reads `src/a.ts` with call
 * `childCallId` (result `resultId`), answers "Found it.", two requests. `finished: false` leaves out its
 * `subagent_finished` (Cairn stopped while it ran).
 */
export function fakeChildRun(options: {
  readonly id: string;
  readonly taskCallId: string;
  readonly childCallId: string;
  readonly resultId: string;
  readonly finished?: boolean;
}): FakeChildRun {
  const { id, taskCallId, childCallId, resultId } = options;
  const kind = id.startsWith('general') ? 'general' : 'explore';
  const info: SubagentInfo = { id, callId: taskCallId, kind, description: `Find uses (${id})`, prompt: 'Where is foo used?', depth: 1 };
  const bracket = `[${resultId} src/a.ts lines 1-1 of 1 sha 00000000]`;
  const text = `${bracket}\nfoo()`;
  const snapshots = [
    fakeChildSnapshot(0, { input: 1000, cacheRead: 0, output: 50, usd: 0.004 }),
    fakeChildSnapshot(1, { input: 200, cacheRead: 1000, output: 20, usd: 0.001 }),
  ];
  const outcome: SubagentOutcome = {
    reason: 'end_turn',
    requests: 2,
    usage: { input: 1200, cacheWrite: 0, cacheRead: 1000, output: 70 },
    costUsd: 0.005,
    resultIds: [resultId],
  };
  const callRead = { type: 'tool_use' as const, id: childCallId, name: 'read', input: { path: 'src/a.ts' } };
  const child = (event: AgentEvent): AgentEvent => ({ type: 'subagent_event', agentId: id, event });
  const events: AgentEvent[] = [
    { type: 'subagent_started', agent: info },
    child({ type: 'user_message', text: info.prompt }),
    child({ type: 'request_started', requestIndex: 0, generation: 0 }),
    child({ type: 'text_delta', text: 'Looking.' }),
    child({
      type: 'assistant_message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, callRead] },
      incomplete: false,
    }),
    child({ type: 'request_finished', requestIndex: 0, snapshot: snapshots[0]! }),
    child({ type: 'tool_started', callId: childCallId, tool: 'read', input: callRead.input, summary: 'read src/a.ts' }),
    child({
      type: 'tool_finished',
      callId: childCallId,
      result: { id: resultId, tool: 'read', bracket, text, kind: 'full', fullChars: text.length, isError: false },
    }),
    child({ type: 'request_started', requestIndex: 1, generation: 0 }),
    child({ type: 'text_delta', text: 'Found it.' }),
    child({ type: 'assistant_message', message: { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] }, incomplete: false }),
    child({ type: 'request_finished', requestIndex: 1, snapshot: snapshots[1]! }),
    child({ type: 'done', reason: 'end_turn' }),
  ];
  const inner = (record: Record<string, unknown>): JournalRecord =>
    ({ type: 'subagent_record', ...at(), agent: id, record }) as JournalRecord;
  const records: JournalRecord[] = [
    { type: 'subagent_started', ...at(), agent: info },
    inner({ type: 'user_message', generation: 0, index: 0, message: { role: 'user', content: [{ type: 'text', text: info.prompt }] } }),
    inner({
      type: 'assistant_message',
      generation: 0,
      index: 1,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, callRead] },
    }),
    inner({ type: 'snapshot', snapshot: snapshots[0] }),
    {
      type: 'tool_result',
      ...at(),
      callId: childCallId,
      result: { id: resultId, callId: childCallId, tool: 'read', input: callRead.input, bracket, body: text, kind: 'full' },
    } as JournalRecord,
    inner({
      type: 'user_message',
      generation: 0,
      index: 2,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: childCallId, content: text }] },
    }),
    inner({
      type: 'assistant_message',
      generation: 0,
      index: 3,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] },
    }),
    inner({ type: 'snapshot', snapshot: snapshots[1] }),
  ];
  if (options.finished !== false) {
    events.push({ type: 'subagent_finished', agentId: id, callId: taskCallId, outcome });
    records.push({ type: 'subagent_finished', ...at(), agent: id, callId: taskCallId, outcome });
  } else {
    events.length = events.findIndex(
      (e) => e.type === 'subagent_event' && e.event.type === 'request_started' && e.event.requestIndex === 1,
    );
    records.length = records.length - 2;
  }
  return { info, events, records };
}
