import { promises as fs } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../ports';
import { SessionLockedError, SessionNotFoundError } from '../errors';
import { SessionCatalog } from './sessionCatalog';
import { JOURNAL_FILE, SessionJournal } from './sessionJournal';
import { META_FILE } from '../sessionMeta';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-catalog-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function fixedClock(ms: number): Clock {
  return { now: () => ms };
}

function say(text: string, index?: number) {
  return {
    type: 'user_message' as const,
    message: { role: 'user' as const, content: [{ type: 'text' as const, text }] },
    ...(index !== undefined ? { generation: 0, index } : {}),
  };
}

function reply(text: string, index?: number) {
  return {
    type: 'assistant_message' as const,
    message: { role: 'assistant' as const, content: [{ type: 'text' as const, text }] },
    ...(index !== undefined ? { generation: 0, index } : {}),
  };
}

async function touch(sessionId: string, ms: number): Promise<void> {
  const when = new Date(ms);
  await fs.utimes(join(dir, sessionId, JOURNAL_FILE), when, when);
}

describe('SessionCatalog', () => {
  it('lists sessions newest first with title, times and message count', async () => {
    const older = await SessionJournal.create(dir, {
      workspace: '/ws',
      model: 'm',
      sessionId: 'older',
      clock: fixedClock(Date.UTC(2026, 0, 1)),
    });
    await older.append(say('Fix the flaky test in parser.ts please'));
    await older.append(reply('Looking.'));
    await older.put({ id: '#0001', tool: 'read', input: {}, bracket: '[#0001]', body: 'x'.repeat(10_000), kind: 'full' });
    await older.close();
    const newer = await SessionJournal.create(dir, {
      workspace: '/other',
      model: 'm',
      sessionId: 'newer',
      clock: fixedClock(Date.UTC(2026, 0, 2)),
    });
    const long = `${'word '.repeat(40)}end`;
    await newer.append(say(`  ${long}\n\nmore`));
    await newer.close();
    await touch('older', Date.UTC(2026, 0, 1, 12));
    await touch('newer', Date.UTC(2026, 0, 3));

    const list = await new SessionCatalog(dir).list();
    expect(list.map((s) => s.id)).toEqual(['newer', 'older']);
    const [n, o] = list;
    expect(o).toMatchObject({
      title: 'Fix the flaky test in parser.ts please',
      messageCount: 2,
      workspace: '/ws',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T12:00:00.000Z',
      inUse: false,
    });
    expect(n!.title).toHaveLength(80);
    expect(n!.title.endsWith('…')).toBe(true);
    expect(n!.title.startsWith('word word')).toBe(true);
    expect(await new SessionCatalog(dir).list({ workspace: '/ws' })).toHaveLength(1);
  });

  it('counts a message re-recorded at the same place once', async () => {
    const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's' });
    await journal.append(say('first', 0));
    await journal.append(say('first, with more', 0));
    await journal.append(reply('ok', 1));
    await journal.close();
    const [summary] = await new SessionCatalog(dir).list();
    expect(summary?.messageCount).toBe(2);
    // The same answer from the journal itself, without the cache.
    await fs.rm(join(dir, 's', META_FILE));
    const [fromJournal] = await new SessionCatalog(dir).list();
    expect(fromJournal).toMatchObject({ messageCount: 2, title: 'first' });
  });

  it('reads the journal when the cache is stale, e.g. after a crash', async () => {
    const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's' });
    await journal.append(say('hello'));
    await journal.close();
    const meta = await fs.readFile(join(dir, 's', META_FILE), 'utf8');
    const reopened = await SessionJournal.open(dir, 's');
    await reopened.journal.append(reply('hi'));
    await reopened.journal.close();
    await fs.writeFile(join(dir, 's', META_FILE), meta); // as if the process died before the cache was updated
    const [summary] = await new SessionCatalog(dir).list();
    expect(summary?.messageCount).toBe(2);
  });

  it('lists a session it cannot read with the problem, never as an empty one', async () => {
    const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's' });
    await journal.close();
    await fs.writeFile(join(dir, 's', JOURNAL_FILE), 'not json\n');
    const [summary] = await new SessionCatalog(dir).list({ workspace: '/ws' });
    expect(summary?.id).toBe('s');
    expect(summary?.problem).toMatch(/cannot be read.*read-only/);
  });

  it('skips folders that never became a session', async () => {
    await fs.mkdir(join(dir, 'half-made'));
    await fs.mkdir(join(dir, '.hidden'));
    expect(await new SessionCatalog(dir).list()).toEqual([]);
    expect(await new SessionCatalog(join(dir, 'missing')).list()).toEqual([]);
  });

  it('marks a session another live process holds, and refuses to delete an open one', async () => {
    const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's' });
    const catalog = new SessionCatalog(dir);
    // Open in this process: not "in use" elsewhere, but still not deletable from under the writer.
    expect((await catalog.list())[0]?.inUse).toBe(false);
    await expect(catalog.delete('s')).rejects.toBeInstanceOf(SessionLockedError);
    await journal.close();
    // Pid 1 is always alive: as if another window on this machine held it.
    await fs.writeFile(join(dir, 's', 'lock'), JSON.stringify({ pid: 1, hostname: hostname(), token: 't', created: '' }));
    expect((await catalog.list())[0]?.inUse).toBe(true);
    await expect(catalog.delete('s')).rejects.toBeInstanceOf(SessionLockedError);
    await fs.rm(join(dir, 's', 'lock'));
    await catalog.delete('s');
    expect(await catalog.list()).toEqual([]);
    await expect(catalog.delete('s')).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it('lists a renamed session by its name (the journal unchanged); refuses an empty name and an unknown session', async () => {
    const journal = await SessionJournal.create(dir, {
      workspace: '/ws',
      model: 'm',
      sessionId: 'named',
      clock: fixedClock(Date.UTC(2026, 0, 1)),
    });
    await journal.append(say('Fix the flaky test'));
    await journal.close();
    const before = await fs.readFile(join(dir, 'named', JOURNAL_FILE));
    const catalog = new SessionCatalog(dir);
    await catalog.rename('named', '  Parser   flakiness\n');
    const [summary] = await catalog.list();
    expect(summary).toMatchObject({ id: 'named', title: 'Parser flakiness', named: true, messageCount: 1 });
    expect(await fs.readFile(join(dir, 'named', JOURNAL_FILE))).toEqual(before);
    await expect(catalog.rename('named', '   ')).rejects.toThrow('cannot be empty');
    await expect(catalog.rename('nothere', 'x')).rejects.toBeInstanceOf(SessionNotFoundError);
    expect((await catalog.list())[0]!.title).toBe('Parser flakiness');
  });
});
