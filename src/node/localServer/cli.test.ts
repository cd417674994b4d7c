import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const demo = join(root, 'src/node/scenario/samples/demo.json');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Starts the CLI as `npm run local-server` does and resolves with the URL it prints first. */
function startCli(args: string[]): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/node/localServer/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (url) => resolvePromise({ url, stderr: () => stderr }));
    child.once('exit', (code) => reject(new Error(`local-server exited with ${code}: ${stderr}`)));
  });
}

describe('local-server CLI', () => {
  it('serves a scenario, prints its URL first, and writes the scenario files into --workspace', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'cairn-local-cli-'));
    dirs.push(workspace);
    const { url } = await startCli(['--scenario', demo, '--port', '0', '--workspace', workspace]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await readFile(join(workspace, 'src/stats.js'), 'utf8')).toContain('function average');
    const client = new Anthropic({ baseURL: url, apiKey: 'any', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 1000, messages: [{ role: 'user', content: 'fix average' }] })
      .finalMessage();
    expect(message.content).toMatchObject([
      { type: 'text' },
      { type: 'tool_use', name: 'grep', input: { pattern: 'average', path: 'src' } },
    ]);
    const facts = await client.models.retrieve('claude-sonnet-4-5');
    expect(facts.max_input_tokens).toBe(200000);
  });

  it('exits with a message naming the field when the scenario is invalid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-local-cli-'));
    dirs.push(dir);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ turns: [{ assistant: { text: 1 } }] }));
    await expect(startCli(['--scenario', bad])).rejects.toThrow(/turns\[0\]\.assistant\.text: expected a string/);
  });

  it('with --bearer-token answers only requests that carry that token (a gateway), 401 otherwise', async () => {
    const { url } = await startCli(['--scenario', demo, '--port', '0', '--bearer-token', 'tok-123456']);
    const refused = await new Anthropic({ baseURL: url, authToken: 'other', apiKey: null, maxRetries: 0 }).models
      .list()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    const listed = await new Anthropic({ baseURL: url, authToken: 'tok-123456', apiKey: null, maxRetries: 0 }).models.list();
    expect(listed.data.length).toBe(1);
  }, 30_000);
});
