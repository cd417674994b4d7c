/**
 * `@folder` mentions (issue 17, item 15): the folder's listing is attached to the user's message through
 * the ledger like the model's `list` (its bracket and id), after the typed text, never in the prefix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, type HostRun } from './hostHarness';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('@folder mentions', () => {
  it('attach the folder’s listing through the ledger (bracket, id), shown in the chat as a list', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-folder-0001',
      scenario: {
        workspace: { 'src/app.ts': 'export const answer = 42;\n', 'src/lib/util.ts': 'export {};\n', 'README.md': '# x\n' },
        turns: [{ user: 'what is in @src/ ?' }, { assistant: { text: 'An app and a lib.' } }],
      },
    });
    const run = host;
    await run.send('what is in @src/ ?');
    const body = run.server.requests.filter((r) => r.kind === 'main')[0]!.body as {
      system: unknown;
      messages: { role: string; content: { type: string; text?: string }[] }[];
    };
    const user = body.messages[0]!.content;
    const typed = user.findIndex((b) => b.text === 'what is in @src/ ?');
    expect(typed).toBeGreaterThanOrEqual(0);
    const attached = user.slice(typed + 1).map((b) => b.text ?? '');
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatch(/^The user attached the folder @src \(its listing\):\n\[#[0-9a-f]{4,}\]\n/);
    expect(attached[0]).toContain('app.ts');
    expect(attached[0]).toContain('lib/');
    expect(attached[0]).not.toContain('README.md');
    expect(JSON.stringify(body.system)).not.toContain('The user attached');
    const finished = run.posted<Extract<HostNotification, { type: 'toolFinished' }>>('toolFinished');
    expect(finished.map((f) => f.result.tool)).toEqual(['list']);
  });
});
