import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

const before = 'export function sum(values) {\n  return values.reduce((a, b) => a + b);\n}\n\nexport const name = "stats";\n';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

type Finished = Extract<HostNotification, { type: 'toolFinished' }>;

describe('results in the editor', () => {
  it('an edit opens in the diff view with the text before it; paths open at their line; results copy in full', async () => {
    host = await startHost({
      apiKey: 'test-key-editor',
      settings: { 'cairn.approvals': { edit: 'allow' } },
      scenario: {
        workspace: { 'src/stats.js': before },
        turns: [
          { user: 'fix sum of an empty list' },
          {
            assistant: {
              tool_calls: [
                { name: 'read', input: { path: 'src/stats.js' } },
                { name: 'edit', input: { path: 'src/stats.js', old_string: '(a, b) => a + b)', new_string: '(a, b) => a + b, 0)' } },
              ],
            },
          },
          { assistant: { text: 'Fixed.' } },
        ],
      },
    });
    const run = host;
    await run.send('fix sum of an empty list');
    const [read, edit] = run.posted<Finished>('toolFinished').map((m) => m.result);
    expect(edit?.kind).toBe('diff');

    await run.chat.fromPage({ type: 'openResult', resultId: edit!.id });
    await waitFor(() => shim.executed.some((e) => e.command === 'vscode.diff'), 'the diff view');
    const [left, right, label] = shim.executed.find((e) => e.command === 'vscode.diff')!.args as [vscode.Uri, vscode.Uri, string];
    const provider = shim.contentProviders.get('cairn-result')!;
    const text = (uri: vscode.Uri) => provider.provideTextDocumentContent(uri, {} as vscode.CancellationToken);
    expect(await text(left)).toBe(before);
    // Both sides belong to this result (issue 17 item 6): the right is the text after this edit, not the live
    // file, so a tab left open never shows a later edit under this result's label.
    const after = before.replace('(a, b) => a + b)', '(a, b) => a + b, 0)');
    expect(right.scheme).toBe('cairn-result');
    expect(right.path).toContain(edit!.id.slice(1));
    expect(await text(right)).toBe(after);
    expect(label).toBe(`src/stats.js (${edit!.id}: before ↔ after)`);
    await writeFile(join(run.workspaceDir, 'src/stats.js'), `${after}// a later edit\n`);
    expect(await text(right)).toBe(after);
    expect(await text(left)).toBe(before);

    await run.chat.fromPage({ type: 'copyResult', resultId: read!.id });
    await waitFor(() => shim.clipboard.includes('export const name = "stats";'), 'the copied result');

    await run.chat.fromPage({ type: 'openFile', path: 'src/stats.js', line: 2 });
    await waitFor(() => shim.shownDocuments.some((d) => d.endsWith('/src/stats.js')), 'the file opened');

    await run.chat.fromPage({ type: 'openResult', resultId: read!.id });
    await waitFor(() => shim.shownDocuments.some((d) => d.startsWith('cairn-result:')), 'the stored result opened');
  });

  it('a patch over several files opens in the multi-file diff view, each file against its text before', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/stats.js',
      '@@',
      '-  return values.reduce((a, b) => a + b);',
      '+  return values.reduce((a, b) => a + b, 0);',
      '*** Add File: src/empty.test.js',
      "+import { sum } from './stats.js';",
      '+console.assert(sum([]) === 0);',
      '*** End Patch',
    ].join('\n');
    host = await startHost({
      apiKey: 'test-key-editor-patch',
      settings: { 'cairn.approvals': { apply_patch: 'allow' } },
      scenario: {
        workspace: { 'src/stats.js': before },
        turns: [
          { user: 'fix it and add a test' },
          { assistant: { tool_calls: [{ name: 'apply_patch', input: { patch } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
    });
    const run = host;
    await run.send('fix it and add a test');
    const [result] = run.posted<Finished>('toolFinished').map((m) => m.result);
    expect(result?.isError).toBe(false);
    await run.chat.fromPage({ type: 'openResult', resultId: result!.id });
    await waitFor(() => shim.executed.some((e) => e.command === 'vscode.changes'), 'the multi-file diff view');
    const [title, resources] = shim.executed.find((e) => e.command === 'vscode.changes')!.args as [
      string,
      [vscode.Uri, vscode.Uri, vscode.Uri][],
    ];
    expect(title).toContain(result!.id);
    expect(resources.map(([label]) => label.fsPath)).toEqual([`${run.workspaceDir}/src/stats.js`, `${run.workspaceDir}/src/empty.test.js`]);
    const provider = shim.contentProviders.get('cairn-result')!;
    const lefts = await Promise.all(resources.map(([, left]) => provider.provideTextDocumentContent(left, {} as vscode.CancellationToken)));
    expect(lefts).toEqual([before, '']);
    // The right sides are this result's too (issue 17 item 6), not the live files.
    expect(resources.every(([, , right]) => right.scheme === 'cairn-result' && right.path.includes(result!.id.slice(1)))).toBe(true);
    const rights = await Promise.all(
      resources.map(([, , right]) => provider.provideTextDocumentContent(right, {} as vscode.CancellationToken)),
    );
    expect(rights[1]).toBe("import { sum } from './stats.js';\nconsole.assert(sum([]) === 0);\n");
  });
});
