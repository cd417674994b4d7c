import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { splitLines } from '../../text/lines';
import { SessionJournal } from './sessionJournal';

// A long command output is written as output_part records while it runs (format 3); every reader gets the
// whole body, a reopen finds it again, and parts a crash left behind are never joined to a later result.

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-journal-parts-'));
});
afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

const result = (id: string, body: string, count: number, chars: number) => ({
  id,
  callId: 'toolu_1',
  tool: 'bash',
  input: { command: 'x' },
  bracket: `[${id}]`,
  body,
  kind: 'full' as const,
  bodyParts: { count, chars },
});

it('stores a body in parts and reads it whole, by window, after a reopen too', async () => {
  const journal = await SessionJournal.create(dir, { workspace: '/w', model: 'm' });
  // Parts a crashed call left (same id, started again at part 0) are not part of the result.
  await journal.putBodyPart('#0001', 0, 'stale\n');
  const parts = ['l1\nl2\nl', '3\r\nl4\n', '\nl6'];
  for (const [i, text] of parts.entries()) await journal.putBodyPart('#0001', i, text);
  const chars = parts.join('').length;
  await journal.put(result('#0001', '\n[exit code 1]', parts.length, chars));
  const whole = `${parts.join('')}\n[exit code 1]`;
  const check = async (j: SessionJournal) => {
    expect((await j.readResult('#0001'))?.body).toBe(whole);
    const all = await j.readLines('#0001', 1, 100);
    expect(all?.lines).toEqual(splitLines(whole));
    expect(all?.total).toBe(splitLines(whole).length);
    expect(await j.readLines('#0001', 3, 2)).toEqual({ id: '#0001', from: 3, to: 4, total: 7, lines: ['l3', 'l4'] });
    const records = [];
    for await (const r of j.readAll()) records.push(r);
    expect(records.filter((r) => r.type === 'tool_result').map((r) => (r.type === 'tool_result' ? r.result.body : ''))).toEqual([whole]);
    expect(records.some((r) => (r.type as string) === 'output_part')).toBe(false);
  };
  await check(journal);
  const sessionId = journal.sessionId;
  await journal.close();
  const reopened = await SessionJournal.open(dir, sessionId, { readOnly: true });
  expect(reopened.corruption).toBeUndefined();
  const head = reopened.records.find((r) => r.type === 'tool_result');
  expect(head?.type === 'tool_result' && head.result.bodyChars).toBe(whole.length);
  await check(reopened.journal);
  await reopened.journal.close();
});

it('refuses a result that names parts it was not given', async () => {
  const journal = await SessionJournal.create(dir, { workspace: '/w', model: 'm' });
  await journal.putBodyPart('#0002', 0, 'a');
  await expect(journal.put(result('#0002', '', 2, 2))).rejects.toThrow(/2 output parts; 1 were written/);
  await expect(journal.putBodyPart('#0002', 3, 'x')).rejects.toThrow(/out of order/);
  await journal.close();
});
