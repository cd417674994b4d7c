import { expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import type { ConversationEntry } from '../conversation/conversation';
import { historyViolations } from './invariants';

const user = (text: string): ConversationEntry => ({ message: { role: 'user', content: [{ type: 'text', text }] } });
const calls = (...ids: string[]): ConversationEntry => ({
  message: { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'bash', input: { command: 'ls' } })) },
});
const results = (...ids: string[]): ConversationEntry => ({
  message: { role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: `[#00${id}] ok` })) },
});

it('holds for a conversation where every call has its one result', () => {
  expect(historyViolations([user('go'), calls('a', 'b'), results('a', 'b')], { atRest: true })).toEqual([]);
  // Mid-run the last calls' results are on their way.
  expect(historyViolations([user('go'), calls('a')], { atRest: false })).toEqual([]);
});

it('names an unanswered call, a stray or repeated result, and roles out of turn', () => {
  expect(historyViolations([user('go'), calls('a')], { atRest: true }).map((v) => v.kind)).toEqual(['unanswered_call']);
  expect(historyViolations([user('go'), calls('a', 'b'), results('a')], { atRest: true }).map((v) => v.kind)).toEqual(['unanswered_call']);
  expect(historyViolations([user('go'), calls('a'), results('a', 'a', 'z')], { atRest: true }).map((v) => v.kind)).toEqual([
    'stray_result',
    'stray_result',
  ]);
  expect(historyViolations([user('go'), user('again')], { atRest: true }).map((v) => v.kind)).toEqual(['roles']);
});

it('with references, names a stub or a same-result answer whose result is not in front of the model', () => {
  const g = new GenerationBuilder()
    .read('#a001', 'src/a.ts', 'aaaa1111')
    .read('#a002', 'src/a.ts', 'aaaa1111', 1, 3, 3, '#a001')
    .grep('#a003', 'x')
    .grep('#a004', 'x', '#a003');
  const entries = g.entries;
  expect(historyViolations(entries, { atRest: true, references: true })).toEqual([]);
  // Drop the full read and the first search (their calls and results): the stub and the same-result answer
  // now name nothing shown.
  const without = [entries[0]!, ...entries.slice(3, 5), ...entries.slice(7)];
  const found = historyViolations(without, { atRest: true, references: true });
  expect(found.map((v) => [v.kind, v.detail])).toEqual([
    ['dangling_reference', '#a002 names #a001, which is not in front of the model'],
    ['dangling_reference', '#a004 names #a003, which is not in front of the model'],
  ]);
});
