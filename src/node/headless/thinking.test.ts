/**
 * Thinking (`cairn.thinking`, issue 33 item 3) through the real loop, ledger, composer, elision and compaction, against
 * the local server, which signs each thinking block it gives and refuses one that comes back changed by a byte (as the
 * service does): the model's thinking blocks go back exactly as received through a tool loop, an elision and a
 * compaction, and the report counts them as a source of their own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPACTION_SETTINGS } from '../../core/compaction/settings';
import { DEFAULT_ELISION_SETTINGS } from '../../core/elision/costModel';
import type { AssistantBlock, Message } from '../../core/model/types';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const lines = (n: number, word: string) => ({ lines: n, text: `export const ${word}{n} = '${word} line {n} of the file';` });

async function thinkingSession(thinking: number | 'off') {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-thinking-'));
  dirs.push(dir);
  return runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    loop: { thinking, maxTokens: 8000 },
    compaction: {
      ...DEFAULT_COMPACTION_SETTINGS,
      // Elide the two superseded reads at the cold return, however small.
      elision: { ...DEFAULT_ELISION_SETTINGS, minResults: 1, minTokens: 0 },
      cache: { ttl: '5m', keepWarm: 'off' },
    },
    scenario: parseScenario({
      model: { id: 'claude-sonnet-4-6' },
      workspace: { 'a.ts': lines(120, 'alpha'), 'b.ts': lines(120, 'beta') },
      turns: [
        { user: 'Look at a.ts and b.ts.' },
        {
          assistant: {
            thinking: 'Both files first; “quotes”, tabs\tand a trailing space ',
            tool_calls: [{ name: 'read', input: { path: 'a.ts' } }],
          },
        },
        {
          assistant: {
            thinking: 'Now b.ts.\n\nThen compare.',
            text: 'Reading b.',
            tool_calls: [{ name: 'read', input: { path: 'b.ts' } }],
          },
        },
        { fs: { write: { path: 'a.ts', content: 'export const alpha = 1;\n' } } },
        { fs: { write: { path: 'b.ts', content: 'export const beta = 2;\n' } } },
        { assistant: { thinking: 'They changed on disk: read again.', tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
        { assistant: { thinking: 'And b.ts again.', tool_calls: [{ name: 'read', input: { path: 'b.ts' } }] } },
        { assistant: { thinking: 'Enough to answer.', text: 'Both are one line now.' } },
        { user: 'Back after lunch: what did they hold before?', idle: 900 },
        { assistant: { thinking: 'The earlier reads were elided; recall is there if needed.', text: 'Many lines each.' } },
        { compact: {} },
        { user: 'Read a.ts once more.' },
        { assistant: { thinking: 'After the compaction: one more read.', tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
        { assistant: { thinking: 'Same as on disk.', text: 'Still one line.' } },
      ],
    }),
  });
}

function thinkingBlocksOf(messages: readonly Message[]): AssistantBlock[] {
  return messages.flatMap((m) => (m.role === 'assistant' ? m.content.filter((b) => b.type === 'thinking') : []));
}

describe('thinking through the loop, an elision and a compaction', () => {
  it('sends every thinking block back exactly as received (the server checks each signature) and counts them in the report', async () => {
    const result = await thinkingSession(2048);
    const server = result.server!;
    const mains = server.requests.filter((r) => r.kind === 'main');
    // Every request was accepted: a thinking block changed by a byte would be a 400 ("Invalid `signature`").
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(server.notices).toEqual([]);
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn']);
    for (const request of mains) expect((request.body as { thinking: unknown }).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });

    // The tool loop: each request carries the previous answers' thinking blocks, text and signature as the server gave them.
    const bodies = mains.map((r) => r.body as { messages: Message[] });
    const sentThinking = bodies.map((b) => thinkingBlocksOf(b.messages));
    expect(sentThinking[1]!.map((b) => (b.type === 'thinking' ? b.thinking : ''))).toEqual([
      'Both files first; “quotes”, tabs\tand a trailing space ',
    ]);
    // The raw bytes on the wire hold the block exactly as the server's stream gave it.
    const first = sentThinking[1]![0]!;
    expect(mains[1]!.rawBody).toContain(JSON.stringify(first).slice(1, -1));

    // The elision at the cold return shortened the superseded reads and left every thinking block as it was.
    const elided = result.snapshots.find((s) => s.decisions.some((d) => d.kind === 'elision'));
    expect(elided, 'an elision at the cold return').toBeDefined();
    const afterElision = bodies[result.snapshots.indexOf(elided!)]!;
    expect(JSON.stringify(afterElision.messages)).toContain('Elided: superseded by');
    const beforeElision = thinkingBlocksOf(bodies[result.snapshots.indexOf(elided!) - 1]!.messages);
    expect(thinkingBlocksOf(afterElision.messages).slice(0, beforeElision.length)).toEqual(beforeElision);
    // After the compaction the tool loop's thinking still goes back signed (the last request carries the read's).
    const last = sentThinking[sentThinking.length - 1]!;
    expect(last.map((b) => (b.type === 'thinking' ? b.thinking : ''))).toContain('After the compaction: one more read.');

    // The report: thinking is a source of its own, beside the conversation.
    const lastSnapshot = result.snapshots[result.snapshots.length - 1]!;
    const source = lastSnapshot.sources.find((s) => s.source === 'thinking');
    expect(source).toMatchObject({ zone: 'messages', label: `${last.length} thinking block${last.length === 1 ? '' : 's'}` });
    expect(source!.bytes).toBeGreaterThan(0);
    expect(lastSnapshot.sources.reduce((sum, s) => sum + s.bytes, 0)).toBe(lastSnapshot.bytes.total);
  }, 120_000);

  it('sends no thinking field when thinking is off', async () => {
    const result = await thinkingSession('off');
    const mains = result.server!.requests.filter((r) => r.kind === 'main');
    expect(mains.length).toBeGreaterThan(0);
    for (const request of mains) expect(request.body).not.toHaveProperty('thinking');
  }, 120_000);
});
