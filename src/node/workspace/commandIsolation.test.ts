import { chmodSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeIsolation } from './commandIsolation';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

let tree: TestTree;
beforeEach(() => {
  tree = makeTestTree({});
});
afterEach(() => tree.remove());

function script(name: string, body: string): string {
  const path = nodePath.join(tree.root, name);
  writeFileSync(path, `#!/bin/bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('whether commands can be isolated here', () => {
  it('elsewhere than Linux: not isolated, and the reason names the system', async () => {
    const answer = await probeIsolation({ platform: 'darwin' });
    expect(answer).toEqual({ kind: 'none', reason: expect.stringContaining('only on Linux') });
    expect(answer.kind === 'none' && answer.reason).toContain('macOS');
  });

  it.skipIf(process.platform !== 'linux')('without bubblewrap: not isolated, and the reason says how to install it', async () => {
    const answer = await probeIsolation({ bwrap: nodePath.join(tree.root, 'no-such-bwrap') });
    expect(answer).toEqual({ kind: 'none', reason: expect.stringContaining('apt install bubblewrap') });
  });

  it.skipIf(process.platform !== 'linux')('a bubblewrap that cannot make a sandbox: not isolated, with what it said', async () => {
    const failing = script('bwrap', 'echo "bwrap: No permissions to create new namespace" >&2; exit 1');
    expect(await probeIsolation({ bwrap: failing })).toEqual({
      kind: 'none',
      reason: expect.stringContaining('bwrap: No permissions to create new namespace'),
    });
  });

  it.skipIf(process.platform !== 'linux')('a "bwrap" that runs the command without a namespace is found out, not trusted', async () => {
    // Drops the options up to `--` and runs the rest as it is: same output, same namespace as ours.
    const fake = script('bwrap', 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"');
    expect(await probeIsolation({ bwrap: fake })).toEqual({ kind: 'none', reason: expect.stringContaining('PID namespace of its own') });
  });

  it.skipIf(process.platform !== 'linux')('a bubblewrap that hangs: not isolated once the probe gives up', async () => {
    const hanging = script('bwrap', 'exec sleep 60');
    expect(await probeIsolation({ bwrap: hanging, timeoutMs: 300 })).toEqual({
      kind: 'none',
      reason: expect.stringContaining('did not answer'),
    });
  });

  it.skipIf(process.platform !== 'linux')('the real bubblewrap (scripts/install-system-deps.sh installs it): isolated', async () => {
    expect(await probeIsolation()).toEqual({ kind: 'namespace', bwrap: 'bwrap' });
  });
});
