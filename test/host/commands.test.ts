import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET } from '../../src/core/model/apiKey';
import type { CompactionDetails, HostNotification, InitMessage } from '../../src/shared/protocol';
import { REPO_ROOT, startHost, waitFor, type HostRun } from './hostHarness';
import { shim, Uri } from './vscodeShim';

const scenario = {
  workspace: { 'src/app.ts': 'export const answer = 42;\n' },
  turns: [
    { user: 'read the app' },
    { assistant: { text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
    { assistant: { text: 'It exports `answer`.' } },
  ],
};

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function manifestCommands(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string; category: string }[] };
  };
  for (const c of manifest.contributes.commands) expect(c.category, c.command).toBe('Cairn');
  return manifest.contributes.commands.map((c) => c.command);
}

describe('commands', () => {
  it('registers every command of the manifest, and each one runs', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-commands' });
    const run = host;
    const declared = await manifestCommands();
    expect([...shim.commands.keys()].sort()).toEqual([...declared].sort());
    // The chat page: strict CSP with the webview's resource origin and one nonce'd script.
    expect(run.chat.html).toContain('style-src https://*.vscode-cdn.net;');
    expect(run.chat.html).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);

    await run.send('read the app');
    const firstSession = run.workspaceState.get('cairn.lastSessionId');
    expect(firstSession).toBeTypeOf('string');
    const resultId = run.posted<Extract<HostNotification, { type: 'toolFinished' }>>('toolFinished')[0]!.result.id;

    // Show Context Report: a panel whose `ready` gets the session's snapshots.
    await shim.commands.get('cairn.showReport')!();
    const panel = shim.panels[0]!;
    await panel.fromPage({ type: 'ready', view: 'report' });
    await waitFor(() => panel.posted.some((m) => (m as InitMessage).type === 'init'), 'the report init');
    const reportInit = panel.posted.find((m) => (m as InitMessage).type === 'init') as InitMessage;
    expect(reportInit.snapshots?.length).toBe(2);

    // Recall Result…: asked in an input box, shown inline in the chat.
    shim.inputBoxAnswers.push(resultId);
    await shim.commands.get('cairn.recallResult')!();
    expect(run.posted<Extract<HostNotification, { type: 'showRecall' }>>('showRecall').at(-1)?.resultId).toBe(resultId);

    // Compact Context: progress, the notice with tokens before → after, details by request, then undo.
    shim.quickPickAnswers.push(1); // Apply
    await shim.commands.get('cairn.compact')!();
    expect(shim.progressTitles.some((t) => /compact/i.test(t))).toBe(true);
    const states = () => run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState');
    const done = states().at(-1)?.state;
    expect(done?.status).toBe('done');
    expect(done?.canUndo).toBe(true);
    expect(done?.tokensAfter).toBeTypeOf('number');
    const mark = run.posted<Extract<HostNotification, { type: 'compacted' }>>('compacted').at(-1)!.mark;
    await run.chat.fromPage({ type: 'request', requestId: 7, method: 'compactionDetails', params: { generation: mark.generation } });
    await waitFor(() => run.posted('response').length > 0, 'the compaction details');
    const details = run.posted<{ type: 'response'; requestId: number; ok: boolean; result: { summary: string } }>('response').at(-1)!;
    expect(details.requestId).toBe(7);
    expect(details.ok).toBe(true);
    expect(details.result.summary.length).toBeGreaterThan(0);
    await run.chat.fromPage({ type: 'compaction', action: 'undo' });
    await waitFor(() => states().at(-1)?.state === null, 'the undo');

    // Export Session: Markdown and raw JSONL in the chosen folder, the Markdown opened.
    const exportDir = join(run.baseDir, 'export');
    shim.openDialogAnswers.push(exportDir);
    await shim.commands.get('cairn.exportSession')!();
    expect(existsSync(join(exportDir, `${String(firstSession)}.md`))).toBe(true);
    expect(existsSync(join(exportDir, `${String(firstSession)}.jsonl`))).toBe(true);

    // Set API Key: a password box, stored in secret storage.
    shim.inputBoxAnswers.push('  sk-new-key-123456  ');
    await shim.commands.get('cairn.setApiKey')!();
    expect(shim.inputBoxOptions.at(-1)?.password).toBe(true);
    expect(run.secrets.get(API_KEY_SECRET)).toBe('sk-new-key-123456');

    await shim.commands.get('cairn.cancel')!();
    await shim.commands.get('cairn.focusChat')!();
    expect(shim.executed.some((e) => e.command === 'cairn.chat.focus')).toBe(true);
    expect(run.posted('focusInput').length).toBeGreaterThan(0);
    await shim.commands.get('cairn.openSettings')!();
    expect(shim.executed.some((e) => e.command === 'workbench.action.openSettings')).toBe(true);

    // New Session, then Open Session… back to the first one: its turns come back with their ids.
    await shim.commands.get('cairn.newSession')!();
    expect(run.workspaceState.get('cairn.lastSessionId')).not.toBe(firstSession);
    const inits = () => run.posted<InitMessage>('init');
    expect(inits().at(-1)?.turns).toHaveLength(0);
    const pickIndex = 1; // newest first: the new (empty) session, then the first one
    shim.quickPickAnswers.push(pickIndex);
    await shim.commands.get('cairn.openSession')!();
    expect(run.workspaceState.get('cairn.lastSessionId')).toBe(firstSession);
    const reopened = inits().at(-1)!;
    expect(reopened.turns).toHaveLength(1);
    const tool = reopened.turns[0]!.items.find((i) => i.type === 'tool');
    expect(tool?.type === 'tool' && tool.result?.id).toBe(resultId);

    expect(shim.errorMessages).toEqual([]);
  });

  it('a command that fails shows an error message instead of throwing', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-commands-2' });
    await shim.commands.get('cairn.recallResult')!('not an id');
    expect(shim.errorMessages.at(-1)).toMatch(/is not a result id/);
  });
});

describe('compaction preview', () => {
  it('stops at a preview that Discard drops and Apply applies', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-preview' });
    const run = host;
    await run.send('read the app');
    const states = () => run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState').map((m) => m.state);
    await shim.commands.get('cairn.compact')!({ preview: true });
    expect(states().at(-1)?.status).toBe('preview');
    await run.chat.fromPage({ type: 'compaction', action: 'discard' });
    expect(states().at(-1)).toBeNull();
    expect(run.posted('compacted')).toHaveLength(0);
    // Apply after a discard has nothing to apply.
    await run.chat.fromPage({ type: 'compaction', action: 'apply' });
    expect(run.posted('compacted')).toHaveLength(0);

    await shim.commands.get('cairn.compact')!({ preview: true, instructions: 'keep the file name' });
    expect(states().at(-1)?.status).toBe('preview');
    await run.chat.fromPage({ type: 'compaction', action: 'apply' });
    await waitFor(() => states().at(-1)?.status === 'done', 'the applied compaction');
    expect(run.posted('compacted')).toHaveLength(1);
  });
});

describe('compaction preview from the palette and the chat', () => {
  const compactionRequests = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'compaction');
  const states = (run: HostRun) =>
    run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState').map((m) => m.state);

  it('the palette offers Preview: the summary, files table and tokens open read-only, and Apply applies that same summary', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-palette-preview' });
    const run = host;
    await run.send('read the app');
    shim.quickPickAnswers.push(2); // Preview with instructions…
    shim.inputBoxAnswers.push('keep the file name');
    shim.infoMessageAnswers.push('Apply');
    await shim.commands.get('cairn.compact')!();
    expect(compactionRequests(run)).toHaveLength(1);
    expect(JSON.stringify(compactionRequests(run)[0]!.body)).toContain('keep the file name');
    // The preview: a read-only document with the tokens, the summary and the files table.
    const shown = shim.shownDocuments.at(-1)!;
    expect(shown).toMatch(/^cairn-result:\/compaction-preview-\d+\.md$/);
    const uri = Uri.from({ scheme: 'cairn-result', path: shown.slice('cairn-result:'.length) });
    const text = String(shim.contentProviders.get('cairn-result')!.provideTextDocumentContent(uri as never, undefined as never));
    expect(text).toContain('# Compaction preview (not applied yet)');
    expect(text).toMatch(/About \d+ → \d+ tokens\. Summarizes \d+ messages and keeps \d+\./);
    expect(text).toContain('## Files read before this summary');
    expect(text).toMatch(/\| src\/app\.ts \| 1-1 of 1 \|/);
    expect(shim.infoMessages.at(-1)).toMatch(/the summary is ready \(about \d+ → \d+ tokens\)\. Apply it\?/);
    // Apply: the previewed summary, no second summary request.
    await waitFor(() => states(run).at(-1)?.status === 'done', 'the applied compaction');
    expect(compactionRequests(run)).toHaveLength(1);
    expect(run.posted('compacted')).toHaveLength(1);
    const summaryInText = text
      .slice(text.indexOf('## Summary') + '## Summary'.length)
      .trim()
      .split('\n')[0]!;
    const details = await requestDetails(run, { generation: 1 });
    expect(details.summary).toContain(summaryInText);
  });

  it('the chat compacts with typed instructions: Preview serves its summary, files table and tokens; Apply applies it', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-chat-preview' });
    const run = host;
    await run.send('read the app');
    await run.chat.fromPage({ type: 'compact', preview: true, instructions: 'keep the answer' });
    await waitFor(() => states(run).at(-1)?.status === 'preview', 'the preview');
    const preview = states(run).at(-1)!;
    expect(preview.hasDetails).toBe(true);
    expect(JSON.stringify(compactionRequests(run)[0]!.body)).toContain('keep the answer');
    const details = await requestDetails(run, { generation: preview.generation, preview: true });
    expect(details.summary.length).toBeGreaterThan(0);
    expect(details.filesTable).toMatch(/\| src\/app\.ts \| 1-1 of 1 \|/);
    expect(details.tokensBefore).toBe(preview.tokensBefore);
    expect(details.tokensAfter).toBe(preview.tokensAfter);
    await run.chat.fromPage({ type: 'compaction', action: 'apply' });
    await waitFor(() => states(run).at(-1)?.status === 'done', 'the applied compaction');
    expect(compactionRequests(run)).toHaveLength(1);
    // The preview is gone once applied.
    const after = await requestDetails(run, { generation: preview.generation, preview: true }, false);
    expect(after.error).toMatch(/No compaction preview is waiting/);
  });
});

let nextRequestId = 100;
async function requestDetails(
  run: HostRun,
  params: { generation: number; preview?: boolean },
  ok = true,
): Promise<CompactionDetails & { error?: string }> {
  const requestId = nextRequestId++;
  await run.chat.fromPage({ type: 'request', requestId, method: 'compactionDetails', params });
  const matching = () =>
    run
      .posted<{ type: 'response'; requestId: number; ok: boolean; result: CompactionDetails; error?: string }>('response')
      .filter((r) => r.requestId === requestId);
  await waitFor(() => matching().length > 0, 'the compaction details');
  const response = matching()[0]!;
  expect(response.ok).toBe(ok);
  return response.ok ? response.result : ({ error: response.error } as CompactionDetails & { error?: string });
}

describe('no folder', () => {
  it('the chat says to open a folder, and a message is not sent', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-no-folder', noFolder: true });
    const errors = () => host!.posted<Extract<HostNotification, { type: 'error' }>>('error');
    expect(errors().at(-1)?.message).toMatch(/open one/);
    await host.chat.fromPage({ type: 'send', text: 'read the app' });
    await waitFor(() => errors().length === 2, 'the second error');
    expect(host.server.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(0);
    expect(shim.errorMessages).toEqual([]);
  });
});

describe('status bar', () => {
  it('shows window usage and the cache-hit share, with the three usage parts in the tooltip; a click opens the report', async () => {
    host = await startHost({ scenario, apiKey: 'test-key-status' });
    const item = shim.statusBarItems.find((i) => i.id === 'cairn.context')!;
    expect(item.visible).toBe(true);
    expect(item.command).toBe('cairn.showReport');
    await host.send('read the app');
    await waitFor(() => /cache \d+%/.test(item.text), 'the cache share in the status bar');
    expect(item.text).toMatch(/^\$\(layers\) \d+% · cache \d+%$/);
    expect(item.tooltip).toMatch(/System: [\d,k]+ · History: [\d,k]+ · Summary: 0/);
    expect(item.tooltip).toMatch(/Read from the cache in the last request: \d+%/);
  });
});

describe('no key', () => {
  it('the chat shows the welcome, then keeps a message sent without a key as unsent, with Set API Key; nothing is sent', async () => {
    host = await startHost({ scenario, apiKey: undefined });
    const errors = () => host!.posted<Extract<HostNotification, { type: 'error' }>>('error');
    expect(host.posted('welcome')).toHaveLength(1);
    expect(errors()).toEqual([]);
    await host.chat.fromPage({ type: 'send', text: 'read the app' });
    await waitFor(() => errors().length === 1, 'the unsent card');
    expect(errors().at(-1)?.action).toBe('setApiKey');
    expect(errors().at(-1)?.unsent).toBe('read the app');
    expect(host.server.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(0);
  });
});
