import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandEnvironment, environmentSecrets } from './commandRunner';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

let tree: TestTree;
let ws: NodeWorkspace;

beforeEach(() => {
  tree = makeTestTree({ 'hello.txt': 'hi\n' });
  ws = new NodeWorkspace(tree.root, { commandLimits: { killGraceMs: 500 } });
});
afterEach(() => tree.remove());

/** Alive and not a zombie (a killed process whose parent died waits for init to reap it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/** Waits for a condition that a killed process makes true soon; no time is asserted. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

function readPid(file: string): number {
  return Number(readFileSync(nodePath.join(tree.root, file), 'utf8').trim());
}

describe('exec', () => {
  it('runs bash -c in the root and reports the exit code', async () => {
    const result = await ws.exec('cat hello.txt; pwd; exit 3', { timeoutMs: 10_000 });
    expect(result).toMatchObject({ output: `hi\n${tree.root}\n`, exitCode: 3, timedOut: false, cancelled: false });
    expect((await ws.exec('true', { timeoutMs: 10_000 })).exitCode).toBe(0);
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    const script = 'for i in 1 2 3; do echo out$i; echo err$i >&2; done; echo last';
    const result = await ws.exec(script, { timeoutMs: 10_000 });
    expect(result.output).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\nlast\n');
  });

  it('streams output to onOutput as it is produced', async () => {
    const chunks: string[] = [];
    const result = await ws.exec('echo one; sleep 0.2; echo two', { timeoutMs: 10_000, onOutput: (c) => void chunks.push(c) });
    expect(chunks.join('')).toBe(result.output);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it('answers an empty output when nothing is printed', async () => {
    expect(await ws.exec('true', { timeoutMs: 10_000 })).toMatchObject({ output: '', exitCode: 0 });
  });

  it('gives commands an empty stdin instead of waiting for input', async () => {
    expect(await ws.exec('cat; echo done', { timeoutMs: 10_000 })).toMatchObject({ output: 'done\n', exitCode: 0 });
  });

  it('keeps bash error messages as bash writes them', async () => {
    const result = await ws.exec('no-such-command-here', { timeoutMs: 10_000 });
    expect(result.exitCode).toBe(127);
    expect(result.output).toMatch(/^bash: line 1: no-such-command-here: command not found\n$/);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const result = await ws.exec('sleep 30 & echo $! > child.pid; bash -c "sleep 31 & echo \\$! > grandchild.pid; wait" & wait', {
      timeoutMs: 500,
    });
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null });
    const child = readPid('child.pid');
    const grandchild = readPid('grandchild.pid');
    expect(await eventually(() => !isAlive(child) && !isAlive(grandchild))).toBe(true);
  });

  it('uses SIGKILL when a command ignores SIGTERM', async () => {
    const result = await ws.exec('trap "" TERM; echo $$ > self.pid; while true; do sleep 0.05; done', { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const pid = readPid('self.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('on abort kills the group and reports cancelled', async () => {
    const controller = new AbortController();
    const running = ws.exec('sleep 30 & echo $! > child.pid; echo started; wait', {
      timeoutMs: 60_000,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    const result = await running;
    expect(result).toMatchObject({ cancelled: true, timedOut: false, exitCode: null });
    expect(result.output).toContain('started');
    const child = readPid('child.pid');
    expect(await eventually(() => !isAlive(child))).toBe(true);
  });

  it('does not start a command whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await ws.exec('echo should-not-run > ran.txt', { timeoutMs: 10_000, signal: controller.signal });
    expect(result).toMatchObject({ cancelled: true, output: '' });
    expect(await ws.stat('ran.txt')).toBeNull();
  });

  it('resolves when bash exits even if a background grandchild keeps the output open', async () => {
    const result = await ws.exec('sleep 30 & echo $! > bg.pid; echo main done', { timeoutMs: 20_000 });
    expect(result).toMatchObject({ output: 'main done\n', exitCode: 0, timedOut: false });
    const bg = readPid('bg.pid');
    // Documented choice: a background process is left running (it may be a server started on purpose).
    expect(isAlive(bg)).toBe(true);
    process.kill(bg, 'SIGKILL');
  });

  it('keeps memory bounded on huge output: head and tail kept, the middle counted', async () => {
    const small = new NodeWorkspace(tree.root, { commandLimits: { maxOutputChars: 100_000 } });
    let streamed = 0;
    const result = await small.exec('echo FIRST; head -c 5000000 /dev/zero | tr "\\0" x; echo; echo LAST', {
      timeoutMs: 20_000,
      onOutput: (c) => void (streamed += c.length),
    });
    expect(streamed).toBe(5_000_000 + 'FIRST\n\nLAST\n'.length);
    expect(result.output.length).toBeLessThan(100_200);
    expect(result.output.startsWith('FIRST\nxxx')).toBe(true);
    expect(result.output.endsWith('xxx\nLAST\n')).toBe(true);
    expect(result.omittedChars).toBe(streamed - 100_000);
    expect(result.output).toContain(`[${result.omittedChars} characters of output not kept in memory]`);
  });

  it('treats a timeout beyond what a timer can hold as no practical limit', async () => {
    expect(await ws.exec('echo ok', { timeoutMs: 1e12 })).toMatchObject({ output: 'ok\n', timedOut: false, exitCode: 0 });
  });

  it('decodes UTF-8 split across chunks', async () => {
    const result = await ws.exec('printf "\\xc3"; sleep 0.1; printf "\\xa9\\n"', { timeoutMs: 10_000 });
    expect(result.output).toBe('é\n');
  });
});

describe('the environment commands run with', () => {
  it("asks for plain output and withholds every Anthropic credential, the user's other variables pass", () => {
    const env = commandEnvironment({
      PATH: '/bin',
      GITHUB_TOKEN: 'gh',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_AUTH_TOKEN: 't',
      ANTHROPIC_CUSTOM_HEADERS: 'x-api-key: k',
      CLAUDE_CODE_OAUTH_TOKEN: 'o',
      FORCE_COLOR: '1',
      TERM: 'xterm-256color',
    });
    expect(env).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'gh', NO_COLOR: '1', TERM: 'dumb', GIT_PAGER: 'cat', PAGER: 'cat' });
  });

  it('gives the redactor the withheld values, custom headers split into their values', () => {
    expect(
      environmentSecrets({ ANTHROPIC_API_KEY: ' sk-1 ', ANTHROPIC_CUSTOM_HEADERS: 'x-api-key: sk-2\nX-Other:v', PATH: '/bin' }),
    ).toEqual([
      { value: 'sk-1', label: 'API key' },
      { value: 'sk-2', label: 'ANTHROPIC_CUSTOM_HEADERS header' },
      { value: 'v', label: 'ANTHROPIC_CUSTOM_HEADERS header' },
    ]);
  });

  it('a command sees NO_COLOR and TERM=dumb', async () => {
    const r = await ws.exec('echo "$NO_COLOR $TERM $PAGER"', { timeoutMs: 10_000 });
    expect(r.output).toBe('1 dumb cat\n');
  });
});
