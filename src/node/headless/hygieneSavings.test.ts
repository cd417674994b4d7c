// Issue 35 §4: what hygiene saved in one scripted session (a stub, a capped command, a same-result search, an edit
// answered with its diff) is the sum of the decisions in its journalled snapshots, each carrying the tokens its
// result kept out of the context; the CSV says the same.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import { tokensSavedBy } from '../../core/ledger/tokensSaved';
import { DEFAULT_PRICES } from '../../core/pricing/prices';
import { hygieneSavings, SAVING_MEASURES, savingsCsv } from '../../core/savings/hygieneSavings';
import { savingsSince, sessionSavings, snapshotsInJournal } from '../../core/savings/node/journalSavings';
import { SessionCatalog } from '../../core/journal/node/sessionCatalog';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

const call = (name: string, input: Record<string, unknown>) => ({ assistant: { tool_calls: [{ name, input }] } });

it("one session's savings per measure are the sum of the decisions in its snapshots, each the tokens its result kept out", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-savings-'));
  dirs.push(dir);
  const result = await runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    scenario: parseScenario({
      model: { id: 'claude-opus-4-6', context_window: 200000, max_output: 4000 },
      workspace: {
        'src/table.ts': { lines: 200, text: "export const row{n} = 'row {n} of the table';" },
      },
      turns: [
        { user: 'Read the table, twice, search it twice, print many lines and change row 1.' },
        call('read', { path: 'src/table.ts' }),
        call('read', { path: 'src/table.ts' }),
        call('grep', { pattern: 'row 1' }),
        call('grep', { pattern: 'row 1' }),
        call('bash', { command: 'seq 1 20000' }),
        call('edit', { path: 'src/table.ts', old_string: "row 1 of the table'", new_string: "row one of the table'" }),
        { assistant: { text: 'Done.' } },
      ],
    }),
  });
  expect(result.doneReasons).toEqual(['end_turn']);
  const kinds = (events: readonly AgentEvent[]) => events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.kind] : []));
  expect(kinds(result.events)).toEqual(['full', 'read-stub', 'full', 'same-result', 'capped', 'diff']);

  // Each ledger decision carries what its result kept out, by the chat's rule.
  const snapshots = await snapshotsInJournal(join(result.sessionDir, 'journal.jsonl'));
  const decisions = snapshots.flatMap((s) => s.snapshot.decisions);
  const finished = result.events.flatMap((e) => (e.type === 'tool_finished' && e.result.kind !== 'full' ? [e.result] : []));
  expect(decisions.filter((d) => d.kind !== 'cache_ttl' && d.kind !== 'rules_delta').map((d) => [d.kind, d.tokensSaved])).toEqual(
    finished.map((r) => [
      { 'read-stub': 'stub', 'same-result': 'same_result', capped: 'cap', diff: 'diff' }[r.kind as string],
      tokensSavedBy(r.kind, r.fullChars, r.text.length),
    ]),
  );
  expect(decisions.filter((d) => d.kind === 'stub')[0]!.tokensSaved).toBeGreaterThan(1000);

  const savings = await sessionSavings(result.sessionDir, DEFAULT_PRICES);
  const sumOf = (kind: string) => decisions.filter((d) => d.kind === kind).reduce((sum, d) => sum + (d.tokensSaved ?? 0), 0);
  expect(savings.measures.stubs.tokens).toBe(sumOf('stub'));
  expect(savings.measures.caps.tokens).toBe(sumOf('cap'));
  expect(savings.measures.same_results.tokens).toBe(sumOf('same_result'));
  expect(savings.measures.diffs.tokens).toBe(sumOf('diff'));
  expect(savings.measures.elisions.tokens).toBe(0);
  expect(savings.tokens).toBe(SAVING_MEASURES.reduce((sum, m) => sum + savings.measures[m].tokens, 0));
  expect(savings.tokens).toBe(decisions.reduce((sum, d) => sum + (d.tokensSaved ?? 0), 0));
  expect(savings.measures.caps.tokens).toBeGreaterThan(10_000);
  // Priced at the model: a stub's tokens are a cache write saved, and a read by each later request.
  expect(savings.measures.stubs.usd).toBeGreaterThan((savings.measures.stubs.tokens * DEFAULT_PRICES['claude-opus-4-6']!.cacheWrite) / 1e6);
  expect(savings.requests).toBe(snapshots.filter((s) => s.snapshot.purpose === 'main').length);
  expect(savings.cacheHitShare).toBeGreaterThan(0);
  expect(savings.expiry).toEqual({ requests: 0, tokens: 0, usd: null });
  expect(hygieneSavings(snapshots, DEFAULT_PRICES)).toEqual(savings);

  const csv = savingsCsv([{ scope: 'session', savings }]).split('\r\n');
  expect(csv[0]).toBe('scope,row,count,tokens,usd,share');
  expect(csv[1]).toMatch(new RegExp(`^session,stubs,1,${savings.measures.stubs.tokens},[\\d.]+,$`));
  expect(csv).toContain(`session,cache_expiry,0,0,,`);
});

it('across sessions: every session of the period adds up, and requests before the period are left out', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-savings-'));
  dirs.push(dir);
  const scenario = parseScenario({
    workspace: { 'a.ts': { lines: 100, text: "export const a{n} = 'line {n}';" } },
    turns: [{ user: 'Read a.ts twice.' }, call('read', { path: 'a.ts' }), call('read', { path: 'a.ts' }), { assistant: { text: 'Same.' } }],
  });
  const first = await runHeadless({ workspaceDir: join(dir, 'w1'), outDir: join(dir, 'out'), scenario });
  const second = await runHeadless({ workspaceDir: join(dir, 'w2'), outDir: join(dir, 'out'), scenario });
  expect(first.sessionId).not.toBe(second.sessionId);
  const catalog = new SessionCatalog(join(dir, 'out', 'sessions'));
  const one = await sessionSavings(first.sessionDir, DEFAULT_PRICES);
  const two = await sessionSavings(second.sessionDir, DEFAULT_PRICES);
  expect(one.measures.stubs.decisions).toBe(1);
  const all = await savingsSince(catalog, 0, DEFAULT_PRICES);
  expect(all.sessions).toBe(2);
  expect(all.unreadable).toEqual([]);
  expect(all.savings.measures.stubs.tokens).toBe(one.measures.stubs.tokens + two.measures.stubs.tokens);
  expect(all.savings.requests).toBe(one.requests + two.requests);
  const later = await savingsSince(catalog, Date.now() + 60_000, DEFAULT_PRICES);
  expect(later.sessions).toBe(0);
  expect(later.savings.tokens).toBe(0);
});
