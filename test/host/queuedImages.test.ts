/**
 * A message sent with images while Cairn works (issue 33 item 1, with issue 34 item 13's queue), through the real
 * extension, the real session and the local server: it is queued with its images (the queue names them), and
 * they go with it when it is sent; taken back to edit, the images come back to the input with the text.
 */
import { Jimp } from 'jimp';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, PastedImage } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type Queued = Extract<HostNotification, { type: 'queued' }>;
type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;
type Inserted = Extract<HostNotification, { type: 'insertText' }>;
type Block = { type: string; text?: string; source?: { data: string } };
type Body = { messages: { role: string; content: Block[] }[] };

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
const queued = (run: HostRun) => run.posted<Queued>('queued').at(-1)?.messages ?? [];
const busyEnds = (run: HostRun) => run.posted<{ type: 'busy'; busy: boolean }>('busy').filter((b) => !b.busy).length;

async function pasted(): Promise<PastedImage> {
  const png = await new Jimp({ width: 200, height: 100, color: 0xcc2233ff }).getBuffer('image/png');
  return { name: 'pasted-1.png', mediaType: 'image/png', data: png.toString('base64') };
}

const SCENARIO = {
  model: { id: 'claude-sonnet-4-6' },
  workspace: { 'README.md': 'hello\n' },
  turns: [
    { user: 'Write the notes.' },
    { assistant: { text: 'Writing them.', tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'first\n' } }] } },
    { assistant: { text: 'Notes written.' } },
    { user: 'What is in this screenshot?' },
    { assistant: { text: 'A small red field.' } },
  ],
};

/** Starts a turn that waits at an approval, then sends a message with a pasted image, which is queued; the image. */
async function queueScreenshotBehindApproval(run: HostRun): Promise<Awaited<ReturnType<typeof pasted>>> {
  const image = await pasted();
  await run.chat.fromPage({ type: 'send', text: 'Write the notes.' });
  await waitFor(() => run.posted('approvalRequested').length === 1, 'the approval prompt');
  await run.chat.fromPage({ type: 'send', text: 'What is in this screenshot?', images: [image] });
  await waitFor(() => queued(run).length === 1, 'the queued message');
  return image;
}

describe('a message with images sent while Cairn works', () => {
  it('is queued with its images, which go with it when the turn ends', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-qimg-0001', scenario: SCENARIO });
    const run = host;
    const image = await queueScreenshotBehindApproval(run);
    expect(queued(run)).toEqual([
      { id: expect.any(Number), text: 'What is in this screenshot?', images: ['pasted-1.png'], steering: false },
    ]);
    expect(run.posted<Extract<HostNotification, { type: 'error' }>>('error')).toEqual([]);

    await run.chat.fromPage({ type: 'approval', callId: run.posted<Asked>('approvalRequested')[0]!.callId, decision: 'allow-once' });
    await waitFor(() => busyEnds(run) >= 2, 'the queued message’s run to end');
    expect(queued(run)).toEqual([]);
    const last = (mains(run).at(-1)!.body as Body).messages.at(-1)!.content;
    const at = last.findIndex((b) => b.type === 'image');
    expect(at, 'an image block in the request').toBeGreaterThan(0);
    expect(last[at]!.source!.data).toBe(image.data);
    expect(last[at - 1]!.text).toMatch(/^The user attached an image:\n\[#[0-9a-f]+ image pasted-1\.png 200×100, ~27 tokens\]$/);
    expect(last.some((b) => b.text === 'What is in this screenshot?')).toBe(true);
  });

  it('taken back to edit, gives the input its images with its text', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-qimg-0002', scenario: SCENARIO });
    const run = host;
    const image = await queueScreenshotBehindApproval(run);
    await run.chat.fromPage({ type: 'queuedMessage', id: queued(run)[0]!.id, action: 'edit' });
    await waitFor(() => run.posted('insertText').length === 1, 'the message back in the input');
    expect(run.posted<Inserted>('insertText')[0]).toEqual({ type: 'insertText', text: 'What is in this screenshot?', images: [image] });
    expect(queued(run)).toEqual([]);
  });
});

describe('"Send now" of a message with images for a model without vision', () => {
  it('is refused as a message sent at once is, nothing of it reaches the turn, and it stays queued with its images', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-qimg-0003',
      settings: { 'cairn.model': 'claude-2.1' },
      scenario: { ...SCENARIO, model: { id: 'claude-2.1' }, turns: SCENARIO.turns.slice(0, 3) },
    });
    const run = host;
    const image = await queueScreenshotBehindApproval(run);
    const id = queued(run)[0]!.id;
    const steered = run.chat.fromPage({ type: 'queuedMessage', id, action: 'sendNow' });
    await waitFor(() => queued(run)[0]?.steering === true, 'the message given to the turn');
    await run.chat.fromPage({ type: 'approval', callId: run.posted<Asked>('approvalRequested')[0]!.callId, decision: 'allow-once' });
    await steered;
    await waitFor(() => busyEnds(run) >= 1, 'the turn to end');
    // The words a message sent at once gets, as a warning; the turn went on without any of it.
    const notices = run.posted<Extract<HostNotification, { type: 'notice' }>>('notice').filter((n) => n.kind === 'no_vision');
    expect(notices.map((n) => n.message)).toEqual([
      'claude-2.1 does not take images, so the message was not sent. Choose a model that does (any Claude from the 3 family on), or remove the images and send it again.',
    ]);
    expect(mains(run)).toHaveLength(2);
    const sent = JSON.stringify(mains(run).map((r) => r.body));
    expect(sent).not.toContain('What is in this screenshot?');
    expect(sent).not.toContain('was not sent');
    // Kept with its images, and not sent by itself when the turn ended: it waits for the user.
    expect(queued(run)).toEqual([{ id, text: 'What is in this screenshot?', images: ['pasted-1.png'], steering: false }]);
    expect(busyEnds(run)).toBe(1);
    await run.chat.fromPage({ type: 'queuedMessage', id, action: 'edit' });
    await waitFor(() => run.posted('insertText').length === 1, 'the message back in the input');
    expect(run.posted<Inserted>('insertText')[0]).toEqual({ type: 'insertText', text: 'What is in this screenshot?', images: [image] });
  });
});

describe('a message with images sent to a model without vision', () => {
  it('is refused before anything is sent, and what the user typed goes back to the input with its images', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-qimg-0004',
      settings: { 'cairn.model': 'claude-2.1' },
      scenario: { model: { id: 'claude-2.1' }, turns: [{ user: 'What is this?' }, { assistant: { text: 'A red field.' } }] },
    });
    const run = host;
    const image = await pasted();
    await run.chat.fromPage({ type: 'send', text: 'What is this?', images: [image] });
    await waitFor(() => busyEnds(run) >= 1, 'the refused run to end');
    const errors = run.posted<Extract<HostNotification, { type: 'error' }>>('error');
    expect(errors.map((e) => [e.kind, e.message])).toEqual([
      [
        'no_vision',
        'claude-2.1 does not take images, so the message was not sent. Choose a model that does (any Claude from the 3 family on), or remove the images and send it again.',
      ],
    ]);
    expect(mains(run)).toHaveLength(0);
    expect(run.posted<Inserted>('insertText')).toEqual([{ type: 'insertText', text: 'What is this?', images: [image] }]);
  });
});

describe('a message with an image sent before a key is set', () => {
  it('keeps the image with the unsent message, and Send Again sends both', async () => {
    host = await startHost({
      scenario: { model: { id: 'claude-sonnet-4-6' }, turns: [{ user: 'What is this?' }, { assistant: { text: 'A red field.' } }] },
    });
    const run = host;
    await run.chat.fromPage({ type: 'send', text: 'What is this?', images: [await pasted()] });
    const card = run.posted<Extract<HostNotification, { type: 'error' }>>('error').find((e) => e.kind === 'unsent');
    expect(card).toMatchObject({ unsent: 'What is this?', message: expect.stringContaining('Your message and its image are kept here') });
    expect(mains(run)).toHaveLength(0);

    shim.inputBoxAnswers.push('sk-ant-test-key-unsent-img-0001');
    await shim.commands.get('cairn.setApiKey')!();
    await run.chat.fromPage({ type: 'action', action: 'resend' });
    await waitFor(() => busyEnds(run) >= 1, 'the resent run');
    const user = (mains(run)[0]!.body as Body).messages.at(-1)!;
    expect(user.content.map((b) => b.type)).toContain('image');
    expect(user.content.some((b) => b.text === 'What is this?')).toBe(true);
  });
});
