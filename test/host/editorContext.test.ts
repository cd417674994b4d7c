/**
 * The editor's context (issue 18) is left out of a message when it says the same as the one the model has.
 * Issue 29 item 3: "the one the model has" was a field set when the blocks were handed out, so a rewind that
 * dropped the message carrying them (edit and resend, a restore of the conversation) left the model without
 * the editor's context until it changed. It is now the last such block in the surviving messages.
 */
import { afterEach, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { EditorContext } from '../../src/host/editorContext';
import { Conversation } from '../../src/core/conversation/conversation';
import { TabInputText, Uri, window } from './vscodeShim';

afterEach(() => {
  (window as { tabGroups: unknown }).tabGroups = { all: [] };
});

function openEditors(...paths: string[]): void {
  (window as { tabGroups: unknown }).tabGroups = {
    all: [{ tabs: paths.map((p) => ({ input: new TabInputText(Uri.file(p)) })) }],
  } as unknown as vscode.TabGroups;
}

function sendWith(conversation: Conversation, blocks: readonly { type: 'text'; text: string }[], text: string): void {
  conversation.appendUser([...blocks, { type: 'text', text }], { syntheticBlocks: blocks.map((_, i) => i) });
  conversation.markSent();
  conversation.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
}

it('sends the editor context again once a rewind dropped the message that carried it', async () => {
  openEditors('/w/a.ts', '/w/b.ts');
  const context = new EditorContext(() => true);
  let conversation = new Conversation();
  sendWith(conversation, [], 'hello');

  const first = await context.blocksFor('look', conversation.all());
  expect(first.blocks).toHaveLength(1);
  expect(first.blocks[0]!.text).toContain('Open editors: /w/a.ts, /w/b.ts');
  sendWith(conversation, first.blocks, 'look');
  // Unchanged and in the conversation: left out.
  expect((await context.blocksFor('again', conversation.all())).blocks).toEqual([]);

  // Edit and resend of "look": the new branch holds only "hello" and its answer.
  conversation = new Conversation(conversation.all().slice(0, 2), 0);
  expect((await context.blocksFor('look again', conversation.all())).blocks).toEqual(first.blocks);
});

it('never takes an editor-context block the user typed for Cairn’s', async () => {
  openEditors('/w/a.ts');
  const context = new EditorContext(() => true);
  const conversation = new Conversation();
  const shown = (await context.blocksFor('x', [])).blocks[0]!.text;
  conversation.appendUser([{ type: 'text', text: shown }]);
  conversation.markSent();
  expect((await context.blocksFor('y', conversation.all())).blocks).toHaveLength(1);
});
