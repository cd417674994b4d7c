/**
 * A chat scene for the browser tests of issue 17's items: one finished turn with everything the items
 * touch (inline code, a highlighted code block, a failing command with its exit code and duration, a
 * search with its matches, an edit's coloured diff, a capped output) and a running turn whose edit waits
 * for approval with its preview. Posted as an `init`, as the host sends after a reload.
 */
import type { InitMessage, TurnView } from '../../src/shared/protocol';

export const SCENE_IDS = ['#a3f2', '#c9d0', '#d100', '#d200', '#d300'];

const ANSWER = [
  'The handler in `src/app.ts` throws; see #a3f2. Run `npm test` after the fix:',
  '',
  '```ts',
  'export function route(name: string): number {',
  '  // a comment',
  "  return name === 'home' ? 200 : 404;",
  '}',
  '```',
].join('\n');

const EDIT_TEXT = [
  '[#d300 src/app.ts sha 1c9e04ab]',
  '@@ -120,2 +120,3 @@',
  '-    throw new Error(`bad route ${name}`);',
  '+    return 404;',
  '+    // unknown route',
  '   }',
].join('\n');

export const EDIT_PREVIEW = ['@@ edit @@', "-  return name === 'home' ? 200 : 500;", "+  return name === 'home' ? 200 : 404;"].join('\n');

export function sceneTurns(): TurnView[] {
  return [
    {
      index: 0,
      items: [
        { type: 'user', text: 'Why does the router answer 500 for an unknown route?' },
        { type: 'assistant', text: ANSWER },
        {
          type: 'tool',
          callId: 'toolu_scene_bash',
          tool: 'bash',
          summary: 'bash npm test',
          status: 'done',
          result: {
            id: '#d100',
            tool: 'bash',
            bracket: '[#d100]',
            text: '[#d100]\n  ✗ test 194 failed: expected 200, got 500\n[exit code 1]',
            kind: 'full',
            fullChars: 60,
            tokensSaved: 0,
            isError: false,
            outcome: { exitCode: 1, durationMs: 2345 },
          },
        },
        {
          type: 'tool',
          callId: 'toolu_scene_grep',
          tool: 'grep',
          summary: 'grep average in src',
          status: 'done',
          result: {
            id: '#d200',
            tool: 'grep',
            bracket: '[#d200]',
            text: '[#d200]\nsrc/stats.ts:3: export const average = 1;\nsrc/app.ts:9: average(xs)',
            kind: 'full',
            fullChars: 70,
            tokensSaved: 0,
            isError: false,
            outcome: { matches: 2 },
          },
        },
        {
          type: 'tool',
          callId: 'toolu_scene_edit',
          tool: 'edit',
          summary: 'edit src/app.ts',
          status: 'done',
          result: {
            id: '#d300',
            tool: 'edit',
            bracket: '[#d300 src/app.ts sha 1c9e04ab]',
            text: EDIT_TEXT,
            kind: 'diff',
            fullChars: 400,
            tokensSaved: 60,
            isError: false,
            outcome: { added: 2, removed: 1, durationMs: 12 },
          },
        },
      ],
    },
    {
      index: 1,
      items: [
        { type: 'user', text: 'Make unknown routes answer 404.' },
        {
          type: 'tool',
          callId: 'toolu_scene_approve',
          tool: 'edit',
          summary: 'edit src/router.ts',
          status: 'awaiting-approval',
          approval: { files: [{ change: 'edit', path: 'src/router.ts' }], preview: EDIT_PREVIEW },
        },
      ],
    },
  ];
}

/** The scene as the host's `init`, on top of the recording's (meter, title). */
export function sceneInit(base: InitMessage, busy = true): InitMessage {
  return { ...base, turns: sceneTurns(), hasOlderTurns: false, resultIds: [...base.resultIds, ...SCENE_IDS], busy };
}
