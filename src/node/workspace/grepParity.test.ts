import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

const ripgrepInstalled = spawnSync('rg', ['--version']).status === 0;

/**
 * Pieces of the accepted dialect; random sequences of them are valid patterns (or refused by both).
 * Anchors only go at the ends, as people write them: ripgrep 13 never matches oddities such as
 * `\b^` even where a boundary and a line start coincide.
 */
const PIECES = [
  'a',
  'b',
  'é',
  'Z',
  '1',
  '_',
  ' ',
  '-',
  '.',
  '\\.',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\b',
  '[ab]',
  '[^a ]',
  '[a-z]',
  '[\\d_]',
  '[é-]',
  '(a|b)',
  '(?:é|Z)',
  '(?<g>a)',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{1,2}',
  '\\t',
  '\\x{e9}',
  '\\p{L}',
  '\\r',
];
const LINE_CHARS = ['a', 'b', 'é', 'É', 'Z', 'z', '1', '_', ' ', '-', '.', '\t', 'ß', 'K'];

let tree: TestTree;
let viaJs: NodeWorkspace;
let viaRg: NodeWorkspace;

beforeAll(() => {
  tree = makeTestTree();
  viaJs = new NodeWorkspace(tree.root, { ripgrepPath: null });
  viaRg = new NodeWorkspace(tree.root);
});
afterAll(() => tree.remove());

async function outcome(ws: NodeWorkspace, pattern: string, ignoreCase: boolean): Promise<unknown> {
  try {
    return await ws.grep({ pattern, ignoreCase });
  } catch (error) {
    return `refused (${(error as Error).name})`;
  }
}

describe.skipIf(!ripgrepInstalled)('grep parity on generated patterns and files', () => {
  it('ripgrep and the fallback agree on every generated case', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.constantFrom('', '^'), fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }), fc.constantFrom('', '$')),
        fc.array(fc.array(fc.constantFrom(...LINE_CHARS), { maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        async ([start, pieces, end], lines, crlf, ignoreCase) => {
          const pattern = start + pieces.join('') + end;
          const eol = crlf ? '\r\n' : '\n';
          writeFileSync(nodePath.join(tree.root, 'f.txt'), lines.map((chars) => chars.join('') + eol).join(''));
          const fromJs = await outcome(viaJs, pattern, ignoreCase);
          const fromRg = await outcome(viaRg, pattern, ignoreCase);
          expect({ pattern, ignoreCase, result: fromRg }).toEqual({ pattern, ignoreCase, result: fromJs });
        },
      ),
      { numRuns: Number(process.env.GREP_PARITY_RUNS ?? 150) },
    );
  }, 600_000);
});
