import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostRun } from './hostHarness';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

interface LoggedBody {
  system: Array<{ text: string }>;
  messages: Array<{ role: string; content: Array<{ type: string; content?: string }> }>;
}

describe('a multi-root window', () => {
  it('tells the model every folder and its tools reach each one: `lib/…` reads and edits the second folder', async () => {
    host = await startHost({
      apiKey: 'test-key-multi-root',
      extraFolders: { lib: { 'util.ts': 'export const answer = 41;\n' } },
      scenario: {
        workspace: { 'main.ts': 'import { answer } from "../lib/util";\n' },
        turns: [
          {
            assistant: {
              tool_calls: [
                { name: 'read', input: { path: 'lib/util.ts' } },
                { name: 'read', input: { path: 'main.ts' } },
              ],
            },
          },
          { assistant: { tool_calls: [{ name: 'edit', input: { path: 'lib/util.ts', old_string: '41', new_string: '42' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      settings: { 'cairn.approvals': { edit: 'allow' } },
    });
    await host.send('check the answer in lib');
    const mains = host.server.requests.filter((entry) => entry.kind === 'main').map((entry) => entry.body as LoggedBody);
    const system = mains[0]!.system.map((block) => block.text).join('\n');
    expect(system).toContain('Workspace folder: workspace (');
    expect(system).toContain('Workspace folder: lib (');
    expect(system).toContain('a file of another folder is `lib/…`');
    const results = mains.at(-1)!.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_result' ? [b.content ?? ''] : [])));
    expect(results[0]).toMatch(/^\[#[0-9a-f]{4,} lib\/util\.ts lines 1-1 of 1 sha [0-9a-f]{8}\]\n1: export const answer = 41;$/);
    expect(results[1]).toMatch(/^\[#[0-9a-f]{4,} main\.ts lines 1-1 of 1/);
    expect(results[2]).toMatch(
      /^\[#[0-9a-f]{4,} lib\/util\.ts sha [0-9a-f]{8}\]\n@@ [^\n]*@@\n-export const answer = 41;\n\+export const answer = 42;/,
    );
  });
});
