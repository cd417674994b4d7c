import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { readTree, startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

const CANARY = 'sk-ant-canary-7f3e9a1c5b2d4e6f8a0b';
const TYPED_CANARY = 'sk-ant-typed-canary-0a9b8c7d6e5f';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('the API key', () => {
  it('a window opened without a key shows the welcome (not an error) before the chat has its init', async () => {
    // Activation opens the session while the chat view says `ready`. The welcome is told before the session
    // opens (issue 34, item 12: the ready chat showed for a moment first); an init never clears it.
    host = await startHost({ scenario: { turns: [] }, readyDuringAttach: true });
    const run = host;
    await waitFor(() => run.posted('welcome').length > 0, 'the welcome');
    // The attach posts the meter (`usage`) and then its inits; give those a moment to land.
    await waitFor(() => run.posted('usage').length > 0, 'the session to open');
    await new Promise((r) => setTimeout(r, 100));
    const types = run.chat.posted.map((m) => {
      const message = m as { type: string; kind?: string };
      return message.type === 'error' ? `error:${message.kind}` : message.type;
    });
    expect(types.indexOf('welcome')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('welcome')).toBeLessThan(types.indexOf('init'));
    expect(run.posted<Extract<HostNotification, { type: 'welcome' }>>('welcome').every((m) => m.welcome !== null)).toBe(true);
    expect(types.filter((t) => t.startsWith('error:'))).toEqual([]);
  });

  it('never reaches settings, logs, webview messages, the journal or an export, through a failure and a key change', async () => {
    host = await startHost({
      apiKey: CANARY,
      scenario: {
        workspace: { 'src/app.ts': 'export const a = 1;\n' },
        turns: [
          { user: 'first' },
          { fault: { status: 400, message: `the server echoes your key ${CANARY} back` } },
          { user: 'second' },
          { assistant: { text: 'Reading.', tool_calls: [{ name: 'bash', input: { command: 'env | grep -i anthropic || true' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      settings: { 'cairn.approvals': { bash: 'allow' } },
    });
    const run = host;
    await run.send('first');
    const errors = run.posted<Extract<HostNotification, { type: 'error' }>>('error');
    expect(errors.length).toBeGreaterThan(0);
    // (A second message in the same session after a failed request is refused by the server today: the
    // failed turn leaves two user messages in a row. That is the loop's to fix; a new session avoids it.)
    await shim.commands.get('cairn.newSession')!();
    await run.send('second');
    expect(run.posted('toolFinished')).toHaveLength(1);

    // A key typed later is hidden from then on too.
    shim.inputBoxAnswers.push(TYPED_CANARY);
    await shim.commands.get('cairn.setApiKey')!();
    run.chat.posted.push({ html: 'the page', text: run.chat.html });

    const exportDir = join(run.baseDir, 'export');
    await shim.commands.get('cairn.exportSession')!({ outDir: exportDir });
    await shim.commands.get('cairn.showReport')!();
    await shim.panels[0]!.fromPage({ type: 'ready', view: 'report' });
    await waitFor(() => shim.panels[0]!.posted.length > 0, 'the report init');

    const places: { where: string; text: string }[] = [
      { where: 'log', text: shim.logLines.join('\n') },
      { where: 'chat webview', text: JSON.stringify(run.chat.posted) },
      { where: 'report webview', text: JSON.stringify(shim.panels[0]!.posted) + shim.panels[0]!.html },
      { where: 'settings', text: JSON.stringify([...shim.settings, ...shim.settingsWrites]) },
      { where: 'workspace state', text: JSON.stringify([...run.workspaceState]) },
      { where: 'messages', text: JSON.stringify([shim.errorMessages, shim.infoMessages]) },
      ...(await readTree(run.storageDir)).map((f) => ({ where: f.path, text: f.text })),
      ...(await readTree(exportDir)).map((f) => ({ where: f.path, text: f.text })),
      ...(await readTree(run.workspaceDir)).map((f) => ({ where: f.path, text: f.text })),
    ];
    expect(places.some((p) => p.where.endsWith('.md'))).toBe(true);
    expect(places.some((p) => p.where.endsWith('journal.jsonl'))).toBe(true);
    for (const place of places) {
      expect(place.text.includes(CANARY), `the key leaked into ${place.where}`).toBe(false);
      expect(place.text.includes(TYPED_CANARY), `the typed key leaked into ${place.where}`).toBe(false);
    }
    expect(shim.settingsWrites).toEqual([]);
  });
});

describe('a key from the environment', () => {
  it('is warned about once, in the chat, with the way to keep it out of reach', async () => {
    host = await startHost({
      envApiKey: 'sk-ant-env-canary-0123456789',
      scenario: { turns: [{ user: 'one' }, { assistant: { text: 'One.' } }, { user: 'two' }, { assistant: { text: 'Two.' } }] },
    });
    await host.send('one');
    await host.send('two');
    const warnings = host
      .posted<Extract<HostNotification, { type: 'notice' }>>('notice')
      .filter((n) => n.kind === 'api_key_from_environment');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe('warning');
    expect(warnings[0]!.message).toContain('Cairn: Set API Key');
    expect(warnings[0]!.turn).toBe(0);
  });

  it('is not warned about when the key is in SecretStorage', async () => {
    host = await startHost({
      apiKey: 'sk-ant-stored-0123456789',
      envApiKey: 'sk-ant-env-0123456789',
      scenario: { turns: [{ user: 'one' }, { assistant: { text: 'One.' } }] },
    });
    await host.send('one');
    expect(host.posted<{ type: string; kind?: string }>('notice').filter((n) => n.kind === 'api_key_from_environment')).toEqual([]);
  });
});
