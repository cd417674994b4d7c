import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendHistory } from '../../compaction/node/historyArchive';
import { SessionJournal } from './sessionJournal';

// Every tool result is in the journal: other local users must not be able to read it (issue item 7).
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function modeOf(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}

describe.skipIf(process.platform === 'win32')('session file permissions', () => {
  it('creates the sessions folder and each session folder 0700, and every file in it 0600', async () => {
    const base = await mkdtemp(join(tmpdir(), 'cairn-perms-'));
    dirs.push(base);
    const sessions = join(base, 'globalStorage', 'sessions');
    const journal = await SessionJournal.create(sessions, { workspace: '/ws', model: 'm', sessionId: 'perm-1' });
    await journal.append({ type: 'user_message', message: { role: 'user', content: [{ type: 'text', text: 'secret' }] } });
    const sessionDir = join(sessions, 'perm-1');
    await appendHistory(sessionDir, '# summarized\n');
    expect(await modeOf(sessions)).toBe('700');
    expect(await modeOf(sessionDir)).toBe('700');
    for (const file of ['journal.jsonl', 'meta.json', 'lock', 'history.md'])
      expect([file, await modeOf(join(sessionDir, file))]).toEqual([file, '600']);
    await journal.close();
  });

  it('makes a session written by an older version private when it is opened again', async () => {
    const base = await mkdtemp(join(tmpdir(), 'cairn-perms-'));
    dirs.push(base);
    const journal = await SessionJournal.create(base, { workspace: '/ws', model: 'm', sessionId: 'perm-2' });
    await journal.close();
    const sessionDir = join(base, 'perm-2');
    await chmod(sessionDir, 0o755);
    await chmod(join(sessionDir, 'journal.jsonl'), 0o644);
    await chmod(join(sessionDir, 'meta.json'), 0o644);
    const opened = await SessionJournal.open(base, 'perm-2');
    expect(await modeOf(sessionDir)).toBe('700');
    expect(await modeOf(join(sessionDir, 'journal.jsonl'))).toBe('600');
    expect(await modeOf(join(sessionDir, 'meta.json'))).toBe('600');
    await opened.journal.close();
  });
});
