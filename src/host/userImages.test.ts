/**
 * The images a user message carried, on the message in the chat after a reload (issue 33 item 1): a session run
 * through the real loop, ledger and journal against the local server, its journal read back as the chat's
 * `init` reads it; the image's one line and a thumbnail of a few kilobytes, never the image itself.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import { afterEach, expect, it } from 'vitest';
import type { JournalRecord } from '../core/journal/records';
import { thumbnailDataUrl } from '../node/images/imageThumbnail';
import { runHeadless } from '../node/headless/runner';
import { parseScenario } from '../node/scenario/scenario';
import { digestJournal } from './journalDigest';
import { UserImageViews } from './userImages';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

it('shows the images a message carried, each its line and a small thumbnail, when the chat is rebuilt from the journal', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-user-images-'));
  dirs.push(dir);
  const workspaceDir = join(dir, 'w');
  await mkdir(workspaceDir, { recursive: true });
  await writeFile(join(workspaceDir, 'shot.png'), await new Jimp({ width: 1280, height: 720, color: 0xcc2233ff }).getBuffer('image/png'));
  const run = await runHeadless({
    workspaceDir,
    outDir: join(dir, 'out'),
    scenario: parseScenario({
      model: { id: 'claude-sonnet-4-6' },
      workspace: { 'README.md': 'screens\n' },
      turns: [
        { user: 'What is wrong in this screenshot?', images: ['shot.png'] },
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'shot.png' } }] } },
        { assistant: { text: 'A red field.' } },
        { user: 'And now?' },
        { assistant: { text: 'Still red.' } },
      ],
    }),
  });
  const records = (await readFile(join(run.sessionDir, 'journal.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);

  const made: string[] = [];
  const views = new UserImageViews(async (block) => {
    made.push(block.source.media_type);
    return thumbnailDataUrl(block);
  });
  const digest = await digestJournal(records, views);
  const [first, second] = digest.turns.map((turn) => turn.items[0]!);
  expect(first).toMatchObject({ type: 'user', text: 'What is wrong in this screenshot?' });
  const images = first?.type === 'user' ? first.images! : [];
  expect(images.map((image) => image.line)).toEqual([expect.stringMatching(/^\[#[0-9a-f]+ image shot\.png 1280×720, ~1,229 tokens\]$/)]);
  // A JPEG of at most 160 px a side: a few kilobytes, where the image sent is the whole PNG.
  const thumbnail = images[0]!.thumbnail!;
  expect(thumbnail).toMatch(/^data:image\/jpeg;base64,/);
  const small = await Jimp.fromBuffer(Buffer.from(thumbnail.slice(thumbnail.indexOf(',') + 1), 'base64'));
  expect([small.width, small.height]).toEqual([160, 90]);
  expect(thumbnail.length).toBeLessThan(10_000);
  // The model's `read` of the image rides with its result, not with a message of the user's; the next message has none.
  expect(second).toEqual({ type: 'user', text: 'And now?' });
  expect(made).toEqual(['image/png']);

  // Digested again (the journal grew): the thumbnail is not made again.
  await digestJournal(records, views);
  expect(made).toEqual(['image/png']);
});
