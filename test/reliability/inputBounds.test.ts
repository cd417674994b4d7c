import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GrepQuery, Workspace } from '../../src/core/ports';
import type { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';

/**
 * Security issue, items 8 to 11: inputs that used to cost minutes or gigabytes. Each case runs on a
 * real folder through the ledger, as the model's call would.
 */

let rig: LedgerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The real workspace, with every readFile counted (a 2 GiB read is what must not happen). */
function countingReads(real: NodeWorkspace, reads: string[]): Workspace {
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'readFile') {
        return (path: string) => {
          reads.push(path);
          return Promise.reject(new Error(`readFile(${path}) was called; the size guard should have answered first`));
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('a 2 GiB file under edit, write, multiedit and apply_patch (item 11)', () => {
  it('is refused from its size, before any byte is read, with a message that names the size and says to use bash', async () => {
    const reads: string[] = [];
    rig = await startLedgerRig({ files: { 'small.txt': 'x\n' }, wrap: (real) => countingReads(real, reads) });
    // Sparse: 2 GiB of size, no disk.
    await fs.writeFile(join(rig.root, 'huge.log'), '');
    await fs.truncate(join(rig.root, 'huge.log'), 2 * 1024 ** 3);
    for (const [name, input] of [
      ['edit', { path: 'huge.log', old_string: 'a', new_string: 'b' }],
      ['multiedit', { path: 'huge.log', edits: [{ old_string: 'a', new_string: 'b' }] }],
      ['write', { path: 'huge.log', content: 'new\n' }],
      ['apply_patch', { patch: '*** Begin Patch\n*** Update File: huge.log\n@@\n-a\n+b\n*** End Patch' }],
      ['read', { path: 'huge.log' }],
    ] as const) {
      const r = await rig.ledger.execute({ callId: name, name, input });
      expect(r.isError, `${name}: ${r.text}`).toBe(true);
      expect(r.text, name).toMatch(/huge\.log is 2048 MiB/);
      expect(r.text, name).toMatch(/bash/);
      if (name !== 'read') expect(r.text, name).toMatch(/Nothing was changed/);
    }
    expect(reads).toEqual([]);
    expect((await fs.stat(join(rig.root, 'huge.log'))).size).toBe(2 * 1024 ** 3);
  });
});

describe('grep over a file that could not be searched (item 10)', () => {
  it('names the file under the matches (or under "(no matches)") instead of leaving it out silently', async () => {
    // The engines' own reporting is tested in src/node/workspace/grep.test.ts; here, what the model is shown.
    rig = await startLedgerRig({
      files: { 'a.txt': 'hello\n' },
      wrap: (real) =>
        new Proxy(real, {
          get(target, key, receiver) {
            if (key === 'grep') {
              return async (query: GrepQuery) => {
                const found = await target.grep(query);
                query.onUnsearched?.('locked.txt', 'EACCES: permission denied');
                return found;
              };
            }
            const value: unknown = Reflect.get(target, key, receiver);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    });
    const hit = await rig.ledger.execute({ callId: 'g1', name: 'grep', input: { pattern: 'hello' } });
    expect(hit.text).toMatch(/a\.txt:1: hello\n\(not searched: locked\.txt: EACCES: permission denied\)/);
    const none = await rig.ledger.execute({ callId: 'g2', name: 'grep', input: { pattern: 'absent' } });
    expect(none.text).toMatch(/\(no matches\)\n\(not searched: locked\.txt: EACCES: permission denied\)/);
  });
});

describe('grep and glob past their time bound (security round 3, item 16)', () => {
  it('answer the model with what to do instead (simpler pattern, narrower path, ripgrep), and the next call works', async () => {
    rig = await startLedgerRig({
      files: { 'a.txt': `${'a'.repeat(9000)}\n`.repeat(4), 'b.txt': 'plain\n' },
      workspace: { searchTimeoutMs: 300 },
    });
    const slow = await rig.ledger.execute({ callId: 'g1', name: 'grep', input: { pattern: '(a?){5000}a{5000}' } });
    expect(slow.isError).toBe(true);
    expect(slow.text).toMatch(/grep stopped after 0\.3 s without finishing: .*simpler pattern.*narrower path or glob, or install ripgrep/s);
    const next = await rig.ledger.execute({ callId: 'g2', name: 'grep', input: { pattern: 'plain' } });
    expect(next.text).toMatch(/b\.txt:1: plain/);
  });
});
