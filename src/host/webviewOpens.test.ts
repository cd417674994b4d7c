import { describe, expect, it } from 'vitest';
import type { EditorActions } from './hostPorts';
import { openFromWebview } from './webviewOpens';

function fakeEditor(activeEditor: boolean): { editor: EditorActions; calls: string[] } {
  const calls: string[] = [];
  const editor = {
    copyText: async (text: string) => void calls.push(`copy ${text}`),
    insertAtCursor: async (text: string) => {
      calls.push(`insert ${text}`);
      return activeEditor;
    },
    openUntitled: async (text: string, language: string | undefined) => void calls.push(`new ${language ?? '-'} ${text}`),
  } as Partial<EditorActions> as EditorActions;
  return { editor, calls };
}

const deps = (editor: EditorActions, warnings: string[]) => ({
  editor,
  journal: { readResult: async () => undefined },
  workspace: { resolve: async () => ({ absolute: '/', relative: '' }) },
  log: { info: () => undefined, warn: (line: string) => void warnings.push(line), error: () => undefined },
});

describe("a code block's buttons", () => {
  it('copy, insert at the cursor and open a new file with the block and its language', async () => {
    const { editor, calls } = fakeEditor(true);
    const warnings: string[] = [];
    for (const action of ['copy', 'insert', 'newFile'] as const)
      await openFromWebview({ type: 'codeBlock', action, code: 'x = 1', language: 'py' }, deps(editor, warnings) as never);
    await openFromWebview({ type: 'codeBlock', action: 'newFile', code: 'plain' }, deps(editor, warnings) as never);
    expect(calls).toEqual(['copy x = 1', 'insert x = 1', 'new py x = 1', 'new - plain']);
    expect(warnings).toEqual([]);
  });

  it('say what to do when there is no editor to insert into', async () => {
    const { editor } = fakeEditor(false);
    const warnings: string[] = [];
    await openFromWebview({ type: 'codeBlock', action: 'insert', code: 'x' }, deps(editor, warnings) as never);
    expect(warnings).toEqual(['Insert at cursor: no editor is open; open a file and place the cursor, then try again.']);
  });
});
