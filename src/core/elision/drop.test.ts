import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { DecisionQueue } from '../compose/decisions';
import { ActiveGeneration } from '../conversation/activeGeneration';
import { Conversation, type ConversationEntry } from '../conversation/conversation';
import { isElisionDetail } from '../conversation/generationDetail';
import type { NewJournalRecord } from '../journal/records';
import { contextInventory } from './contextInventory';
import { DEFAULT_ELISION_SETTINGS } from './costModel';
import { DropError } from './drop';
import { Elider } from './elider';
import { resultFacts } from './resultFacts';
import { userElisionSettings } from '../compaction/coldSendFacts';

/** A file read twice (the second a stub), a long test run, a search answered twice, an MCP call, a skill, a task. */
function session(): GenerationBuilder {
  return new GenerationBuilder()
    .read('#a001', 'src/a.ts', 'aaaaaaaa', 1, 300, 300)
    .bash('#b001', 'npm test', `${'PASS test\n'.repeat(400)}[exit code 0]`)
    .grep('#c001', 'TODO')
    .read('#a002', 'src/a.ts', 'aaaaaaaa', 1, 300, 300, '#a001')
    .grep('#c002', 'TODO', '#c001')
    .call('mcp__github__issue', { number: 3 }, '[#d001]\nissue body')
    .call('skill', { name: 'release' }, '[#e001]\nhow to release')
    .call('task', { description: 'find the bug' }, '[#f001]\nthe bug is in a.ts')
    .bash('#b002', 'npm test', `${'PASS test\n'.repeat(400)}[exit code 0]`);
}

function harness(entries: readonly ConversationEntry[]) {
  const generations = new ActiveGeneration({ number: 0, conversation: new Conversation(entries) });
  const journalled: NewJournalRecord[] = [];
  const forgotten: string[][] = [];
  const decisions = new DecisionQueue();
  const elider = new Elider({
    generations,
    decisions,
    recorder: { notice: async () => undefined },
    ledger: { forgetReads: (ids) => void forgotten.push([...ids]) },
    ledgerState: () => ({}),
    journal: { append: async (record) => journalled.push(record) },
    staticState: () => ({}),
    estimate: (list) => Math.ceil(JSON.stringify(list.map((e) => e.message)).length / 4),
    settings: () => DEFAULT_ELISION_SETTINGS,
    thresholdTokens: async () => 160_000,
    lastRequestAt: () => 1_000,
    now: () => 2_000,
    log: () => undefined,
  });
  return { elider, generations, journalled, forgotten, decisions };
}

const chars = (text: string): number => Math.ceil(text.length / 4);

describe('what is in the context now', () => {
  it('groups every result by what it is about, with its tokens, uses, last use and what superseded it', () => {
    const items = contextInventory(session().entries, chars);
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(items.map((i) => [i.id, i.group])).toEqual([
      ['#a001', 'file'],
      ['#b001', 'command'],
      ['#c001', 'search'],
      ['#a002', 'file'],
      ['#c002', 'search'],
      ['#d001', 'mcp'],
      ['#e001', 'skill'],
      ['#f001', 'subagent'],
      ['#b002', 'command'],
    ]);
    expect(byId.get('#a001')).toMatchObject({ subject: 'src/a.ts', timesUsed: 2, oneLine: false });
    expect(byId.get('#a001')!.tokens).toBeGreaterThan(1000);
    // Read 9 requests ago, its stub 6 requests ago: last used when the stub named it.
    expect(byId.get('#a001')!.lastUsedRequestsAgo).toBe(5);
    expect(byId.get('#b001')).toMatchObject({ supersededBy: '#b002', timesUsed: 2, lastUsedRequestsAgo: 0 });
    expect(byId.get('#d001')).toMatchObject({ subject: 'github' });
    expect(byId.get('#e001')).toMatchObject({ subject: 'release' });
    expect(byId.get('#f001')).toMatchObject({ subject: 'find the bug' });
  });
});

describe('dropping results from the context', () => {
  it('replaces each chosen result, and the stub naming one, by its bracket and one line; the rest is byte-identical', async () => {
    const g = session();
    const h = harness(g.entries);
    const plan = await h.elider.planDrop(['#a001', '#c001'], userElisionSettings(DEFAULT_ELISION_SETTINGS));
    // The stub #a002 and the same-result answer #c002 name dropped results: they go too (one line already).
    expect(plan.elided.map((e) => e.id).sort()).toEqual(['#a001', '#a002', '#c001', '#c002']);
    expect(plan.elided.every((e) => e.dropped)).toBe(true);
    const events = await h.elider.apply(plan, 'drop');
    const texts = resultFacts(h.generations.current.conversation.all()).map((f) => f.text);
    expect(texts[0]).toBe('[#a001 src/a.ts lines 1-300 of 300 sha aaaaaaaa] Dropped from the context by the user; recall #a001 shows it.');
    expect(texts[2]).toBe('[#c001] Dropped from the context by the user; recall #c001 shows it.');
    const untouched = g.entries[4]!.message.content[0];
    expect(texts[1]).toBe(untouched?.type === 'tool_result' ? untouched.content : '');
    expect(h.generations.current.conversation.all()[0]).toEqual(g.entries[0]);
    expect(h.forgotten).toEqual([['#a001', '#c001', '#a002', '#c002']]);
    const record = h.journalled[0]!;
    expect(record.type === 'generation_started' && isElisionDetail(record.detail) && record.detail.reason).toBe('drop');
    const decision = h.decisions.take()[0]!;
    expect(decision.detail).toMatch(/^dropped by the user: elided 4 chosen results/);
    // The decision's figures are the plan's: what the view showed before the user confirmed.
    expect(decision.elision).toMatchObject({ savedPerRequest: plan.judgement.savedPerRequest, breakCost: plan.judgement.breakCost });
    expect(plan.judgement.savedPerRequest).toBeGreaterThan(700);
    expect(plan.rewriteTokens).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ type: 'notice', kind: 'elision' });
    // Dropped results are one line in the view, and a second drop of one is refused with what happened.
    expect(contextInventory(h.generations.current.conversation.all(), chars).find((i) => i.id === '#a001')?.oneLine).toBe(true);
    await expect(h.elider.planDrop(['#a001'], DEFAULT_ELISION_SETTINGS)).rejects.toThrow(/already one line/);
  });

  it('refuses an id the context does not carry, and an empty choice, saying so', async () => {
    const h = harness(session().entries);
    await expect(h.elider.planDrop(['#ffff'], DEFAULT_ELISION_SETTINGS)).rejects.toBeInstanceOf(DropError);
    await expect(h.elider.planDrop([], DEFAULT_ELISION_SETTINGS)).rejects.toThrow(/at least one/);
  });
});
