import { writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatchCollector } from './javascriptGrep';
import { NodeWorkspace } from './nodeWorkspace';
import { SearchBound } from './searchBound';
import type { ProgressReply } from './searchProtocol';
import { SearchThreads, searchWorkerScript, type SearchRun } from './searchThreads';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

let tree: TestTree;
beforeAll(() => {
  tree = makeTestTree({
    'costly.txt': `${'a'.repeat(9000)}\n`.repeat(4),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`f${n}.txt`, `one\nfile ${n}\n`])),
  });
});
afterAll(() => tree.remove());

const globRun = (onReply: (reply: ProgressReply) => void = () => {}): SearchRun => ({
  bound: new SearchBound(30_000),
  what: 'glob',
  timedOut: () => new Error('unexpected: the bound'),
  onReply,
});

describe('the search threads', () => {
  it('a missing worker entry fails the search with a SearchThreadError that says to reinstall', async () => {
    const empty = makeTestTree();
    try {
      const threads = new SearchThreads(() => searchWorkerScript(empty.root));
      await expect(threads.run({ kind: 'glob', root: tree.root, start: '', pattern: '*' }, globRun())).rejects.toMatchObject({
        name: 'SearchThreadError',
        message: expect.stringMatching(/searchWorker\.js\) is missing from .*Reinstall the extension/),
      });
    } finally {
      empty.remove();
    }
  });

  it('a thread that dies mid-search fails that search with a SearchThreadError, and the next search gets a new thread', async () => {
    const fake = makeTestTree();
    try {
      // A fake worker: loads, then exits on its first request.
      const file = nodePath.join(fake.root, 'fakeDyingWorker.js');
      writeFileSync(
        file,
        "const { parentPort } = require('node:worker_threads');\nparentPort.on('message', () => process.exit(3));\nparentPort.postMessage({ kind: 'ready' });\n",
      );
      const threads = new SearchThreads(() => ({ file, execArgv: [] }));
      for (let attempt = 0; attempt < 2; attempt++) {
        await expect(threads.run({ kind: 'glob', root: tree.root, start: '', pattern: '*' }, globRun())).rejects.toMatchObject({
          name: 'SearchThreadError',
          message: expect.stringMatching(/stopped \(exit 3\) before the glob ended/),
        });
      }
    } finally {
      fake.remove();
    }
  });

  it('more searches than threads at once: each waits its turn and answers; a cancel while waiting ends the wait first', async () => {
    const ws = new NodeWorkspace(tree.root, { ripgrepPath: null, searchTimeoutMs: 1500 });
    const settled: string[] = [];
    const costly = Array.from({ length: 4 }, (_, n) =>
      ws.grep({ pattern: '(a?){5000}a{5000}', path: 'costly.txt' }).then(
        () => settled.push(`costly ${n} answered`),
        (error: Error) => settled.push(`costly ${n}: ${error.name}`),
      ),
    );
    // The costly four take the four threads first (they only resolve their path before asking for one).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cancel = new AbortController();
    const waiting = ws.grep({ pattern: 'one', signal: cancel.signal }).catch((error: Error) => settled.push(`waiting: ${error.name}`));
    setTimeout(() => cancel.abort(), 100);
    const many = Array.from({ length: 12 }, (_, n) => ws.grep({ pattern: `file ${n}$` }));
    const answers = await Promise.all(many);
    await Promise.all([...costly, waiting]);
    expect(answers).toEqual(Array.from({ length: 12 }, (_, n) => [{ path: `f${n}.txt`, line: 2, text: `file ${n}` }]));
    // All four threads were busy with the costly searches until their bound; the cancelled one did not wait for that.
    expect(settled[0]).toBe('waiting: SearchCancelledError');
    expect(settled.slice(1).sort()).toEqual([0, 1, 2, 3].map((n) => `costly ${n}: SearchTimeoutError`));
  }, 60_000);
});

describe('MatchCollector', () => {
  it('keeps a file whole or not at all: matches handed on before the file became unsearchable are dropped', () => {
    const collected = new MatchCollector();
    collected.add([{ path: 'a', line: 1, text: 'x' }]);
    collected.add([{ path: 'b', line: 1, text: 'y' }]);
    collected.add([{ path: 'a', line: 7, text: 'z' }]);
    collected.drop('b');
    expect(collected.all()).toEqual([
      { path: 'a', line: 1, text: 'x' },
      { path: 'a', line: 7, text: 'z' },
    ]);
  });
});
