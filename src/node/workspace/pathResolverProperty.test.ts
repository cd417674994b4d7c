import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathResolver, isInside } from './pathResolver';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { WorkspacePathError } from './workspaceErrors';

let tree: TestTree;
let outside: string;
let resolver: PathResolver;

beforeAll(() => {
  tree = makeTestTree({ 'a/b/file.txt': 'x\n', 'a/c.txt': 'y\n' });
  outside = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'cairn-outside-')));
  writeFileSync(nodePath.join(outside, 'secret'), 's\n');
  symlinkSync(outside, nodePath.join(tree.root, 'out'));
  symlinkSync(nodePath.join(outside, 'secret'), nodePath.join(tree.root, 'a/secret'));
  symlinkSync('../..', nodePath.join(tree.root, 'a/b/up2'));
  symlinkSync('b', nodePath.join(tree.root, 'a/in'));
  symlinkSync(nodePath.join(outside, 'missing'), nodePath.join(tree.root, 'dangling'));
  resolver = new PathResolver(tree.root);
});
afterAll(() => {
  tree.remove();
  rmSync(outside, { recursive: true, force: true });
});

const SEGMENTS = ['..', '.', '', 'a', 'b', 'c.txt', 'file.txt', 'out', 'secret', 'up2', 'in', 'dangling', 'new', '..\\..', 'a\\b'];

describe('path resolution, generated', () => {
  it('never answers a path whose real location is outside the root', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 7 }), fc.boolean(), async (segments, absolute) => {
        const path = (absolute ? `${tree.root}/` : '') + segments.join('/');
        let resolved;
        try {
          resolved = await resolver.resolve(path);
        } catch (error) {
          expect(error).toBeInstanceOf(WorkspacePathError);
          return;
        }
        expect(resolved.relative.split('/')).not.toContain('..');
        expect(isInside(tree.root, resolved.absolute)).toBe(true);
        expect(isInside(tree.root, resolved.physical)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
