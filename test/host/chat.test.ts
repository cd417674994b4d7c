/**
 * The chat's everyday features through the real extension, the real session and the local server
 * (issue 17): a message without a key is kept and sent once a key is saved and checked; the welcome; a
 * cancel says Stopped and Continue goes on; failures and cancels are logged; slash commands; the model
 * picker changes the next request's model; tokens and cost per turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, ModelChoices } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type ErrorMessage = Extract<HostNotification, { type: 'error' }>;
type NoticeMessage = Extract<HostNotification, { type: 'notice' }>;

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
let nextRequestId = 1;

async function request<T>(run: HostRun, method: string, params: unknown): Promise<{ ok: boolean; result?: T; error?: string }> {
  const requestId = nextRequestId++;
  await run.chat.fromPage({ type: 'request', requestId, method, params });
  const matching = () =>
    run
      .posted<{ type: 'response'; requestId: number; ok: boolean; result?: T; error?: string }>('response')
      .filter((r) => r.requestId === requestId);
  await waitFor(() => matching().length > 0, `the ${method} response`);
  return matching()[0]!;
}

describe('a message without a key', () => {
  it('is kept as unsent (one card, however often it is sent), and Send Again sends it once the key is saved and checked', async () => {
    host = await startHost({ scenario: { turns: [{ user: 'fix the bug' }, { assistant: { text: 'Fixed.' } }] } });
    const run = host;
    // The first run: a welcome, not an error.
    expect(run.posted<Extract<HostNotification, { type: 'welcome' }>>('welcome').at(-1)?.welcome).toEqual({ server: run.server.url });
    expect(run.posted('error')).toEqual([]);

    await run.chat.fromPage({ type: 'send', text: 'fix the bug' });
    await run.chat.fromPage({ type: 'send', text: 'fix the bug' });
    const unsent = run.posted<ErrorMessage>('error').filter((e) => e.kind === 'unsent');
    expect(unsent).toHaveLength(2); // the chat replaces the first with the second (same kind)
    expect(unsent[0]!.unsent).toBe('fix the bug');
    expect(unsent[0]!.action).toBe('setApiKey');
    expect(unsent[0]!.message).toContain(`the server at ${run.server.url}`);
    expect(mains(run)).toHaveLength(0);
    // A view that opens after the card was sent (the session's init after the welcome, a reload) shows it too.
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    const init = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!;
    const cards = init.turns.flatMap((turn) => turn.items).filter((item) => item.type === 'error' && item.kind === 'unsent');
    expect(cards).toEqual([expect.objectContaining({ unsent: 'fix the bug', action: 'setApiKey' })]);

    shim.inputBoxAnswers.push('sk-ant-test-key-unsent-0001');
    await shim.commands.get('cairn.setApiKey')!();
    // Checked with a models call before "ready", and Send Again offered.
    expect(run.server.requests.some((r) => r.kind === 'models')).toBe(true);
    const saved = run.posted<NoticeMessage>('notice').filter((n) => n.kind === 'api_key');
    expect(saved.at(-1)?.message).toMatch(/API key saved and checked: .* answered with 1 model\. Cairn is ready\./);
    expect(saved.at(-1)?.action).toBe('resend');
    expect(run.posted<Extract<HostNotification, { type: 'welcome' }>>('welcome').at(-1)?.welcome).toBeNull();

    const before = run.posted('busy').length;
    await run.chat.fromPage({ type: 'action', action: 'resend' });
    await waitFor(
      () =>
        run
          .posted<{ type: 'busy'; busy: boolean }>('busy')
          .slice(before)
          .some((m) => !m.busy),
      'the resent run',
    );
    expect(mains(run)).toHaveLength(1);
    expect(JSON.stringify(mains(run)[0]!.body)).toContain('fix the bug');
    expect(run.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted').map((t) => t.text)).toEqual(['fix the bug']);
  });

  it('a key the server refuses is not "ready": the check says why, naming the server', async () => {
    host = await startHost({ scenario: { turns: [{ user: 'hi' }, { assistant: { text: 'Hello.' } }] } });
    const run = host;
    // The local server refuses no key by itself; a models call to a closed port is the failure at hand.
    shim.settings.set('cairn.baseUrl', 'http://127.0.0.1:9');
    shim.configurationChanged.fire({ affectsConfiguration: (section: string) => section.startsWith('cairn') });
    shim.inputBoxAnswers.push('sk-ant-test-key-refused-0001');
    await shim.commands.get('cairn.setApiKey')!();
    const errors = run.posted<ErrorMessage>('error').filter((e) => e.kind === 'auth');
    expect(errors.at(-1)?.message).toContain('The API key was saved, but checking it with the server at http://127.0.0.1:9 failed');
    expect(errors.at(-1)?.action).toBe('setApiKey');
    expect(run.posted<NoticeMessage>('notice').some((n) => n.kind === 'api_key')).toBe(false);
    expect(shim.logLines.join('\n')).toContain('checking it with the server at http://127.0.0.1:9 failed');
  });
});

describe('a run that ends early', () => {
  it('after the user’s cancel: "Stopped" with Continue (not an error), logged; Continue sends a message that goes on', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-cancel-0001',
      scenario: {
        turns: [
          { user: 'long task' },
          { fault: { delay_ms: 5000 } },
          { assistant: { text: 'Partial.' } },
          { user: 'Continue from where you stopped.' },
          { assistant: { text: 'Went on.' } },
        ],
      },
    });
    const run = host;
    await run.send('long task', async (r) => {
      await waitFor(() => r.server.requests.some((q) => q.kind === 'main'), 'the request');
      await r.chat.fromPage({ type: 'cancel' });
    });
    const stopped = run.posted<NoticeMessage>('notice').filter((n) => n.kind === 'stopped');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.action).toBe('continue');
    expect(run.posted<ErrorMessage>('error')).toEqual([]);
    expect(shim.logLines.join('\n')).toContain('The run was cancelled by the user.');
    const before = run.posted('busy').length;
    await run.chat.fromPage({ type: 'action', action: 'continue' });
    await waitFor(
      () =>
        run
          .posted<{ type: 'busy'; busy: boolean }>('busy')
          .slice(before)
          .some((m) => !m.busy),
      'the continued run',
    );
    expect(JSON.stringify(mains(run).at(-1)!.body)).toContain('Continue from where you stopped.');
  });

  it('a 401 is logged as a final failure and its error names the server of cairn.baseUrl', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-401-0001',
      scenario: { turns: [{ user: 'hi' }, { fault: { status: 401, message: 'invalid x-api-key' } }] },
    });
    const run = host;
    await run.send('hi');
    const error = run.posted<ErrorMessage>('error').at(-1)!;
    expect(error.kind).toBe('auth');
    expect(error.message).toContain(`The server at ${run.server.url} rejected the API key (401)`);
    expect(error.message).not.toContain('`');
    expect(shim.logLines.join('\n')).toMatch(/The run failed \(auth\): The server at .* rejected the API key/);
  });
});

describe('slash commands, the model picker and per-turn usage', () => {
  const scenario = {
    workspace: { 'src/app.ts': 'export const answer = 42;\n' },
    turns: [
      { user: 'read the app' },
      { assistant: { text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
      { assistant: { text: 'It exports `answer`.' } },
      { user: 'again' },
      { assistant: { text: 'Again.' } },
    ],
  };

  it('init lists the host’s slash commands; /compact runs with its instructions, /report opens the report; an unknown /word goes to the model as written', async () => {
    host = await startHost({ scenario, apiKey: 'sk-ant-test-key-slash-0001' });
    const run = host;
    const init = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!;
    expect(init.slashCommands?.map((c) => c.name)).toEqual(['compact', 'export', 'new', 'report']);
    expect(init.slashCommands?.find((c) => c.name === 'compact')?.argumentHint).toBe('[instructions]');
    await run.send('read the app');
    await run.chat.fromPage({ type: 'send', text: '/compact keep the answer constant' });
    // The page's message is handled asynchronously (the PreCompact hooks are looked up first): wait for the result.
    await waitFor(() => run.posted('compacted').length === 1, 'the compaction');
    const compactions = run.server.requests.filter((r) => r.kind === 'compaction');
    expect(compactions).toHaveLength(1);
    expect(JSON.stringify(compactions[0]!.body)).toContain('keep the answer constant');
    expect(run.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted')).toHaveLength(1);
    await run.chat.fromPage({ type: 'send', text: '/report' });
    await waitFor(() => shim.executed.some((e) => e.command === 'cairn.showReport'), '/report');
    expect(shim.executed.some((e) => e.command === 'cairn.showReport')).toBe(true);
    expect(mains(run).some((r) => JSON.stringify(r.body).includes('/report'))).toBe(false);
    await run.send('/usr/bin is where it is');
    expect(JSON.stringify(mains(run).at(-1)!.body)).toContain('/usr/bin is where it is');
  });

  it('the picker lists the server’s models with window and price; a pick is the next request’s model; each turn reports its tokens and cost', async () => {
    host = await startHost({ scenario, apiKey: 'sk-ant-test-key-model-0001', settings: { 'cairn.model': 'claude-sonnet-4-5' } });
    const run = host;
    const init = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!;
    expect(init.model).toBe('claude-sonnet-4-5');
    const choices = await request<ModelChoices>(run, 'models', {});
    expect(choices.ok).toBe(true);
    expect(choices.result!.current).toBe('claude-sonnet-4-5');
    const listed = choices.result!.models.find((m) => m.id !== 'claude-sonnet-4-5' || m.windowTokens !== undefined)!;
    expect(listed.windowTokens).toBeGreaterThan(0);
    await run.send('read the app');
    expect((mains(run).at(-1)!.body as { model: string }).model).toBe('claude-sonnet-4-5');
    const usage = run.posted<Extract<HostNotification, { type: 'turnUsage' }>>('turnUsage');
    expect(usage.length).toBe(2); // two requests in the turn
    expect(usage[0]!.turn).toBe(0);
    expect(usage[0]!.inputTokens).toBeGreaterThan(0);
    expect(usage[0]!.costUsd).toBeGreaterThan(0);

    await run.chat.fromPage({ type: 'pickModel', model: 'claude-haiku-4-5' });
    await waitFor(() => run.posted<Extract<HostNotification, { type: 'model' }>>('model').at(-1)?.model === 'claude-haiku-4-5', 'the pick');
    expect(shim.settingsWrites).toContainEqual({ key: 'model', value: 'claude-haiku-4-5' });
    await run.send('again');
    expect((mains(run).at(-1)!.body as { model: string }).model).toBe('claude-haiku-4-5');
    // A picked id that is not a model id is refused at the boundary.
    await run.chat.fromPage({ type: 'pickModel', model: 'x y' });
    await waitFor(() => shim.logLines.some((l) => l.includes('model must be a model id')), 'the refusal');
    expect(shim.settingsWrites.filter((w) => w.key === 'model')).toHaveLength(1);
  });

  it('New Session asks before stopping a running session', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-new-0001',
      scenario: { turns: [{ user: 'slow' }, { fault: { delay_ms: 3000 } }, { assistant: { text: 'Done.' } }] },
    });
    const run = host;
    const sessionBefore = run.workspaceState.get('cairn.lastSessionId');
    await run.send('slow', async (r) => {
      await waitFor(() => r.server.requests.some((q) => q.kind === 'main'), 'the request');
      shim.warningMessageAnswers.push(undefined); // dismissed: nothing happens
      await shim.commands.get('cairn.newSession')!();
      expect(run.workspaceState.get('cairn.lastSessionId')).toBe(sessionBefore);
      expect(shim.warningMessages.at(-1)).toContain('Cairn is still working');
      shim.warningMessageAnswers.push('Stop and Start New');
      await shim.commands.get('cairn.newSession')!();
    });
    expect(run.workspaceState.get('cairn.lastSessionId')).not.toBe(sessionBefore);
  });
});

describe('@ mentions', () => {
  it('attach the file to the user’s message through the ledger (bracket, id); a later read of it is a stub; missing files stay text', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-mention-0001',
      scenario: {
        workspace: { 'src/app.ts': 'export const answer = 42;\n' },
        turns: [
          { user: 'explain @src/app.ts and @src/missing.ts' },
          { assistant: { text: 'Reading it again.', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
          { assistant: { text: 'It exports answer.' } },
        ],
      },
    });
    const run = host;
    await run.send('explain @src/app.ts and @src/missing.ts');
    const first = mains(run)[0]!.body as { system: unknown; messages: { role: string; content: { type: string; text?: string }[] }[] };
    const user = first.messages[0]!;
    const typed = user.content.findIndex((b) => b.text === 'explain @src/app.ts and @src/missing.ts');
    expect(typed).toBeGreaterThanOrEqual(0);
    const attached = user.content.slice(typed + 1).map((b) => b.text ?? '');
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatch(/^The user attached @src\/app\.ts:\n\[#[0-9a-f]{4,} src\/app\.ts lines 1-1 of 1 sha [0-9a-f]+\]/);
    expect(attached[0]).toContain('export const answer = 42;');
    // Never in the cached prefix (the system part).
    expect(JSON.stringify(first.system)).not.toContain('export const answer = 42;');
    // The chat shows it as a read with its id; the model's later read is answered with a stub.
    const finished = run.posted<Extract<HostNotification, { type: 'toolFinished' }>>('toolFinished');
    expect(finished).toHaveLength(2);
    expect(finished[0]!.result.bracket).toContain('src/app.ts');
    expect(finished[1]!.result.kind).toBe('read-stub');
    expect(finished[1]!.result.refersTo).toContain(finished[0]!.result.id);
  });

  it('a dropped file becomes a mention in the input; one outside the workspace is not added', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-drop-0001', scenario: { workspace: { 'src/app.ts': 'x\n' }, turns: [] } });
    const run = host;
    await run.chat.fromPage({ type: 'dropFiles', uris: [`file://${run.workspaceDir}/src/app.ts`, 'file:///etc/passwd'] });
    await waitFor(() => run.posted('insertText').length > 0, 'the mention');
    expect(run.posted<Extract<HostNotification, { type: 'insertText' }>>('insertText')[0]!.text).toBe('@src/app.ts ');
    expect(shim.logLines.join('\n')).toContain('1 dropped file(s) outside the workspace were not added.');
  });
});
