import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_TIME } from '../../src/core/compaction/settings';
import { CacheBreakDetector } from '../../src/core/compose/cacheBreak';
import { messageHash } from '../../src/core/compose/messageHash';
import { encodeRequest } from '../../src/core/compose/requestEncoding';
import type { RequestSnapshot } from '../../src/core/compose/snapshot';
import type { ModelRequest } from '../../src/core/model/types';
import { mainRequests, startScenarioSession, type ScenarioSession } from './harness';

/**
 * A long scripted session through the real loop, ledger, composer and the local server: reads, stubs,
 * caps, edits, recalls, same-result searches, changes from outside and a rules file edited mid-session.
 * Every request must extend the previous one byte for byte (zero cache breaks), checked on the bodies the
 * server logged.
 */
/** Only the re-reads after an outside change use this offset, so they can be told apart. */
const OUTSIDE_REREAD_OFFSET = 115;

function longScenario() {
  const workspace: Record<string, unknown> = { 'AGENTS.md': 'Use tabs.\n' };
  for (let f = 0; f < 8; f++) workspace[`src/mod${f}.ts`] = { lines: 120, text: `export const m${f}_{n} = {n};` };
  const turns: unknown[] = [];
  let rulesEdited = false;
  for (let user = 0; user < 10; user++) {
    turns.push({ user: `task ${user}` });
    for (let step = 0; step < 10; step++) {
      const k = user * 10 + step;
      const file = `src/mod${k % 8}.ts`;
      const calls: unknown[] = [];
      switch (k % 7) {
        case 0:
          calls.push({ name: 'read', input: { path: file } });
          break;
        case 1:
          calls.push({ name: 'read', input: { path: file, offset: 10, limit: 20 } });
          break; // a stub
        case 2:
          calls.push({ name: 'grep', input: { pattern: 'm1_5\\b' } });
          break; // same result after the first
        case 3:
          calls.push({ name: 'bash', input: { command: 'seq 1 900' } });
          break; // capped
        case 4:
          calls.push({
            name: 'edit',
            input: { path: file, old_string: `m${k % 8}_${(k % 100) + 1} = `, new_string: `m${k % 8}_${(k % 100) + 1} =  ` },
          });
          break;
        case 5:
          calls.push({ name: 'recall', input: { id: '{result:-2}', limit: 5 } });
          break;
        default:
          calls.push({ name: 'list', input: { path: 'src' } });
          break;
      }
      turns.push({ assistant: { text: `step ${k}`, tool_calls: calls } });
      if (k % 13 === 6) {
        // An outside change between a read and a re-read that would otherwise be a stub.
        const changed = `src/mod${(k + 1) % 8}.ts`;
        turns.push({ assistant: { text: `look at ${changed}`, tool_calls: [{ name: 'read', input: { path: changed } }] } });
        turns.push({ fs: { append: { path: changed, content: `// outside ${k}\n` } } });
        turns.push({
          assistant: {
            text: `look again at ${changed}`,
            tool_calls: [{ name: 'read', input: { path: changed, offset: OUTSIDE_REREAD_OFFSET } }],
          },
        });
      }
    }
    turns.push({ assistant: { text: `done with task ${user}` } });
    if (user === 4 && !rulesEdited) {
      rulesEdited = true;
      turns.push({ fs: { write: { path: 'AGENTS.md', content: 'Use spaces, four of them.\n' } } });
    }
  }
  return { model: { context_window: 1000000, max_output: 8000 }, workspace, turns };
}

/**
 * Both lifetimes the user can leave on: "5m" and "auto" (an hour for the tools, the system and, when the cost model
 * says so, the turn start). Under "auto" the static markers are an hour's in every request, so they never move.
 */
describe.each(['5m', 'auto'] as const)('cairn.cache.ttl %s', (ttl) => {
  let open: ScenarioSession;

  function mainSnapshots(): RequestSnapshot[] {
    return open.events.flatMap((e) =>
      e.type === 'request_finished' && e.snapshot.purpose === 'main' ? [e.snapshot as RequestSnapshot] : [],
    );
  }
  beforeAll(async () => {
    open = await startScenarioSession(longScenario(), {
      workspaceRules: true,
      compaction: { cache: { ...DEFAULT_CACHE_TIME, ttl } },
      approvals: { alwaysAllow: new Set(['bash', 'edit']), workspaceTrusted: true },
      loop: { maxTurns: 50 },
    });
    for (let user = 0; user < 10; user++) {
      // The rules file changes from outside between task 4 and task 5 (an fs turn the server applies).
      const reason = await open.assembled.session.send(`task ${user}`);
      expect(reason, JSON.stringify(open.events.filter((e) => e.type === 'error' || e.type === 'notice'))).toBe('end_turn');
    }
  }, 300_000);
  afterAll(async () => open?.close());

  describe(`a long session keeps the provider cache warm (cairn.cache.ttl: ${ttl})`, () => {
    it('sends over 100 requests whose static prefix is byte-identical', () => {
      const bodies = mainRequests(open.server) as ModelRequest[];
      expect(bodies.length).toBeGreaterThanOrEqual(100);
      const first = JSON.stringify([bodies[0]!.system, bodies[0]!.tools]);
      for (const body of bodies) expect(JSON.stringify([body.system, body.tools])).toBe(first);
    });

    it('has zero cache breaks within a generation, checked on the logged bodies and by the composer', () => {
      const bodies = mainRequests(open.server) as ModelRequest[];
      const generations = mainSnapshots().map((s) => s.generation);
      expect(generations).toHaveLength(bodies.length);
      const detector = new CacheBreakDetector();
      const breaks = bodies.map((body, i) => detector.observe(encodeRequest(body), generations[i]!)).filter(Boolean);
      expect(breaks).toEqual([]);
      expect(open.assembled.composer.cacheBreaks).toBe(0);
    });

    it('every new generation is a deliberate, recorded elision whose first request names it', () => {
      const snapshots = mainSnapshots();
      const starts = snapshots.filter((s, i) => i > 0 && s.generation !== snapshots[i - 1]!.generation);
      // The session re-reads files it edits and reruns commands: elision must have found something to pay for.
      expect(starts.length).toBeGreaterThan(0);
      for (const start of starts) expect(start.decisions.map((d) => d.kind)).toContain('elision');
      const elisions = snapshots.flatMap((s) => s.decisions.filter((d) => d.kind === 'elision'));
      expect(elisions).toHaveLength(starts.length);
    });

    it('exercised every measure: stubs, caps, same results, diffs and recalls', () => {
      const kinds = new Set(open.events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.kind] : [])));
      for (const kind of ['full', 'read-stub', 'capped', 'same-result', 'diff', 'recall']) expect(kinds).toContain(kind);
    });

    it('reads a file changed from outside in full, with the new content, never as a stub', () => {
      const rereads = new Set(
        open.events.flatMap((e) =>
          e.type === 'tool_started' && (e.input as { offset?: number }).offset === OUTSIDE_REREAD_OFFSET ? [e.callId] : [],
        ),
      );
      const results = open.events.flatMap((e) => (e.type === 'tool_finished' && rereads.has(e.callId) ? [e.result] : []));
      const changes = [...Array(100).keys()].filter((k) => k % 13 === 6);
      expect(results).toHaveLength(changes.length);
      results.forEach((result, i) => {
        expect(result.kind, result.text).toBe('full');
        expect(result.text).toContain(`// outside ${changes[i]}`);
        expect(result.text).not.toContain('Unchanged since');
      });
    });

    it('sent the edited rules file as a delta in the next user message, once', () => {
      const bodies = mainRequests(open.server) as ModelRequest[];
      const last = bodies.at(-1)!;
      expect(JSON.stringify(last.system)).toContain('Use tabs.');
      expect(JSON.stringify(last.system)).not.toContain('four of them');
      const carrying = last.messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('Use spaces, four of them.'));
      expect(carrying).toHaveLength(1);
      // The server applies the script's fs turn when the request for task 5 arrives, after task 5 was sent,
      // so the delta rides with the next message the user sends.
      expect(JSON.stringify(carrying[0]!.content)).toContain('task 6');
    });

    it('reads most of every request from the cache once warm', () => {
      const usage = open.server.requests.filter((r) => r.kind === 'main' && r.usage).map((r) => r.usage!);
      const warm = usage.slice(2);
      const read = warm.reduce((n, u) => n + u.cache_read_input_tokens, 0);
      const all = warm.reduce((n, u) => n + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens, 0);
      expect(read / all).toBeGreaterThan(0.9);
    });

    it('snapshot message hashes reproduce from the logged bodies, and byte counts add up', () => {
      const bodies = mainRequests(open.server) as ModelRequest[];
      const snapshots = open.events.flatMap((e) =>
        e.type === 'request_finished' && e.snapshot.purpose === 'main' ? [e.snapshot as RequestSnapshot] : [],
      );
      expect(snapshots).toHaveLength(bodies.length);
      snapshots.forEach((snapshot, i) => {
        expect(snapshot.messageHashes).toEqual(bodies[i]!.messages.map((m) => messageHash(m)));
        expect(snapshot.bytes.tools + snapshot.bytes.system + snapshot.bytes.messages).toBe(snapshot.bytes.total);
      });
    });
  });
});
