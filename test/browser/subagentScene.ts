/**
 * A chat with sub-agents (issue 19) for the browser suite: a finished turn whose two `task` calls hold a
 * finished child (collapsed: its transcript with a result id, its figures) and an interrupted one, and a
 * running turn whose child streams and waits for approval of a call whose id is also the parent's task
 * call's. Posted as an `init`, as the host sends after a reload or mid-run.
 */
import type { InitMessage, RequestSnapshotView, TurnView } from '../../src/shared/protocol';

export const SUBAGENT_IDS = ['#e101', '#e102', '#e103'];

/** The finished child's read: what its result shows and what a recall of it returns. */
export const CHILD_READ = {
  id: '#e101',
  bracket: '[#e101 src/router.ts lines 1-3 of 3 sha 0badc0de]',
  body: 'export function route() {\n  foo();\n}',
};

export function subagentTurns(): TurnView[] {
  return [
    {
      index: 0,
      items: [
        { type: 'user', text: 'Where is foo used?' },
        {
          type: 'tool',
          callId: 'toolu_task_1',
          tool: 'task',
          summary: 'task Find the uses of foo',
          status: 'done',
          result: {
            id: '#e102',
            tool: 'task',
            bracket: '[#e102 task explore-1]',
            text: '[#e102 task explore-1]\nfoo is called in src/router.ts.\n[explore-1: 2 requests, 2,270 tokens, $0.0050; results #e101..#e101]',
            kind: 'full',
            fullChars: 120,
            tokensSaved: 0,
            isError: false,
          },
          subagent: {
            id: 'explore-1',
            callId: 'toolu_task_1',
            kind: 'explore',
            description: 'Find the uses of foo',
            prompt: 'Find every call of foo() in src/ and say where each is.',
            status: 'done',
            reason: 'end_turn',
            usage: { requests: 2, inputTokens: 2200, outputTokens: 70, cacheReadTokens: 1000, costUsd: 0.005 },
            items: [
              { type: 'assistant', text: 'Looking in `src/`.' },
              {
                type: 'tool',
                callId: 'toolu_c1',
                tool: 'read',
                summary: 'read src/router.ts',
                status: 'done',
                result: {
                  id: CHILD_READ.id,
                  tool: 'read',
                  bracket: CHILD_READ.bracket,
                  text: `${CHILD_READ.bracket}\n${CHILD_READ.body}`,
                  kind: 'full',
                  fullChars: 60,
                  tokensSaved: 0,
                  isError: false,
                },
              },
              { type: 'assistant', text: 'foo is called in src/router.ts (see #e101).' },
            ],
          },
        },
        {
          type: 'tool',
          callId: 'toolu_task_2',
          tool: 'task',
          summary: 'task Check the tests',
          status: 'cancelled',
          subagent: {
            id: 'explore-2',
            callId: 'toolu_task_2',
            kind: 'explore',
            description: 'Check the tests',
            prompt: 'Which tests call foo?',
            status: 'interrupted',
            reason: 'interrupted',
            usage: { requests: 1, inputTokens: 900, outputTokens: 10, cacheReadTokens: 0, costUsd: 0.003 },
            items: [{ type: 'tool', callId: 'toolu_c2', tool: 'grep', summary: 'grep foo in test', status: 'cancelled' }],
          },
        },
        { type: 'assistant', text: 'foo is used once, in src/router.ts.' },
      ],
    },
    {
      index: 1,
      items: [
        { type: 'user', text: 'Rename foo to bar everywhere.' },
        {
          type: 'tool',
          callId: 'toolu_task_3',
          tool: 'task',
          summary: 'task Rename foo',
          status: 'running',
          subagent: {
            id: 'general-3',
            callId: 'toolu_task_3',
            kind: 'general',
            description: 'Rename foo',
            prompt: 'Rename foo to bar in src/ and run the tests.',
            status: 'running',
            items: [
              { type: 'assistant', text: 'I will run the tests first.', streaming: false },
              // The same id as the parent's task call: the answer must name the child.
              {
                type: 'tool',
                callId: 'toolu_task_3',
                tool: 'bash',
                summary: 'bash npm test -- --grep foo',
                status: 'awaiting-approval',
                approval: { command: 'npm test -- --grep foo' },
              },
            ],
          },
        },
      ],
    },
  ];
}

export function subagentInit(base: InitMessage): InitMessage {
  return {
    ...base,
    turns: subagentTurns(),
    hasOlderTurns: false,
    resultIds: [...base.resultIds, ...SUBAGENT_IDS],
    busy: true,
    ...(base.meter
      ? {
          meter: {
            ...base.meter,
            sessionCostUsd: 0.02,
            subagents: [
              { id: 'explore-1', usage: { requests: 2, inputTokens: 2200, outputTokens: 70, cacheReadTokens: 1000, costUsd: 0.005 } },
              { id: 'explore-2', usage: { requests: 1, inputTokens: 900, outputTokens: 10, cacheReadTokens: 0, costUsd: 0.003 } },
            ],
          },
        }
      : {}),
  };
}

/** The report's requests: the parent's, then two children's interleaved as parallel children make them. */
export function subagentSnapshots(base: RequestSnapshotView): RequestSnapshotView[] {
  const request = (index: number, agent: string | undefined, costUsd: number): RequestSnapshotView => ({
    ...base,
    index,
    turn: 0,
    usage: { input: 100, cacheWrite: 0, cacheRead: 400, output: 20 },
    costUsd,
    ...(agent !== undefined ? { agent } : {}),
  });
  return [
    request(0, undefined, 0.01),
    request(1, 'explore-1', 0.002),
    request(2, 'explore-2', 0.003),
    request(3, 'explore-1', 0.003),
    request(4, undefined, 0.002),
  ];
}
