// The scenario's history moves (issue 29): `retry`, `undo`, `edit` and `restore` turns played by the headless
// runner through the same session calls as the editor, against the local server, which refuses any request
// that is not valid.
import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { digestJournal } from '../../host/journalDigest';
import type { ConversationEntry } from '../../core/conversation/conversation';
import { historyViolations } from '../../core/history/invariants';
import { userMessagesOf } from '../../core/history/userMessages';
import type { JournalRecord } from '../../core/journal/records';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';
import { transcriptLines } from './transcript';

const SAMPLE = resolve(__dirname, '..', 'scenario', 'samples', 'history-moves.json');
const ROOT = resolve(__dirname, '..', '..', '..');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-moves-'));
  dirs.push(dir);
  return dir;
}

type Block = { type: string; text?: string; content?: unknown };
type Body = { messages: Array<{ role: 'user' | 'assistant'; content: Block[] }> };
interface Logged {
  kind: string;
  status: number;
  body: Body;
}

/** The text of a request's messages (tool results' too), to look for what was sent. */
function sentText(body: Body): string {
  return JSON.stringify(body.messages);
}

/** What every request must be (`core/history/invariants.ts`): roles alternate, each call answered once, no reference to a result not sent. */
function violationsOf(body: Body): string[] {
  const entries = body.messages.map((message) => ({ message }) as unknown as ConversationEntry);
  return historyViolations(entries, { atRest: true, references: true }).map((v) => `${v.kind}: ${v.detail}`);
}

const GREET_HI = "'use strict';\n\nfunction greet(name) {\n  return 'Hi, ' + name + '.';\n}\n\nmodule.exports = { greet };\n";

describe('the history-moves sample through npm run agent', () => {
  it('plays retry, a restore of files and conversation, an edit, a files-only restore with a conflict, compact and undo: every request valid, the edited text sent, the files restored on disk', async () => {
    const dir = await tempDir();
    const workspace = join(dir, 'w');
    const out = join(dir, 'out');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/node/headless/cli.ts', '--workspace', workspace, '--out', out, '--scenario', SAMPLE],
      { cwd: ROOT, timeout: 90_000 },
    );
    // Every turn was played as written: no script notice (the exit code is 0: the failed run was retried).
    expect(stderr.split('\n').filter((line) => line.startsWith('[scenario]'))).toEqual([]);
    expect(stdout).toContain('[error: rate_limited]');
    expect(stdout).toContain(
      "[info] turn 3 (retry): asking again for the answer to message 1 (“Make greet say 'Hi' instead of 'Hello'.”).\n\n## assistant\ngreet says 'Hi' now.",
    );
    expect(stdout).toContain(
      '[info] turn 8 (restore): restored 1 file to before message 2 (“Add a farewell function beside greet.”): src/greet.js (written back). The conversation continues from before message 2 (generation 1).',
    );
    expect(stdout).toContain(
      '[info] turn 12 (edit): message 2 (“What does src/greet.js export now?”) edited: the conversation starts again from before it (generation 2; the earlier branch stays in the journal), and the new text is sent.\n\n## user\nWhich functions does src/greet.js define?',
    );
    expect(stdout).toContain(
      "[info] turn 19 (restore): restored 1 file to before message 3 (“Start a CHANGELOG.md with that change and note it in NOTES.…”): CHANGELOG.md (deleted). Kept the user's version of NOTES.md (a conflict: you changed it since Cairn’s last change to it). The conversation is unchanged; the next message tells the model which files were restored.",
    );
    expect(stdout).toMatch(/## compaction \(manual, [a-z]+ stage\): generation 3/);
    expect(stdout).toContain('[info] The last compaction was undone: the model has the conversation as it was before the summary.');
    expect(stdout).toMatch(/\n13 requests, 7 runs \(error, end_turn, end_turn, end_turn, end_turn, end_turn, end_turn; 1 retried\)/);

    const logged = (await readFile(join(out, 'requests.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Logged);
    const main = logged.filter((r) => r.kind === 'main');
    // The one failure is the scripted 429; the server refused nothing, and every request is valid.
    expect(main.map((r) => r.status).filter((s) => s !== 200)).toEqual([429]);
    for (const request of [...main, ...logged.filter((r) => r.kind === 'compaction')]) expect(violationsOf(request.body)).toEqual([]);
    const answered = main.filter((r) => r.status === 200);
    const sentAt = (words: string) => answered.findIndex((r) => sentText(r.body).includes(words));
    // The restore of the conversation took message 2 away: no later request has it.
    const farewell = answered.filter((r) => sentText(r.body).includes('Add a farewell function'));
    expect(farewell).toHaveLength(2);
    expect(answered.slice(answered.indexOf(farewell.at(-1)!) + 1).some((r) => sentText(r.body).includes('Add a farewell function'))).toBe(
      false,
    );
    // The edited text went out in place of message 2, and the abandoned one is in no request after it.
    const edited = sentAt('Which functions does src/greet.js define?');
    expect(edited).toBeGreaterThan(0);
    expect(answered.slice(edited).some((r) => sentText(r.body).includes('What does src/greet.js export now?'))).toBe(false);
    // The message after the files-only restore (and the undone compaction) tells the model which file went back.
    const last = answered.at(-1)!.body.messages.at(-1)!;
    expect(last.content.map((b) => b.text ?? '').join('\n')).toMatch(
      /<cairn-note kind="files_restored">[\s\S]*CHANGELOG\.md[\s\S]*Is there a changelog\?/,
    );

    // On disk: greet back to before message 2 (no farewell), the changelog gone, the user's note kept.
    expect(await readFile(join(workspace, 'src/greet.js'), 'utf8')).toBe(GREET_HI);
    await expect(access(join(workspace, 'CHANGELOG.md'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(workspace, 'NOTES.md'), 'utf8')).toBe(
      "# Notes\n\n- greet says 'Hi' (see CHANGELOG.md).\n- my own note: keep the changelog short.\n",
    );

    // "Message N" is the chat's: the fold the runner reads agrees with the chat's digest on this journal.
    const sessionDir = /; journal (\S+); snapshots/.exec(stdout)![1]!;
    const records = (await readFile(join(sessionDir, 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalRecord);
    const messages = await userMessagesOf(records);
    expect(messages.map((m) => m.text)).toEqual([
      "Make greet say 'Hi' instead of 'Hello'.",
      'Which functions does src/greet.js define?',
      'Start a CHANGELOG.md with that change and note it in NOTES.md.',
      'Is there a changelog?',
    ]);
    const digest = await digestJournal(records);
    expect(messages.map(({ generation, index }) => ({ generation, index }))).toEqual([...digest.userPlaces.values()]);
  }, 90_000);
});

describe('moves that cannot be played', () => {
  it('each is an error line in the transcript saying what happened and why, and a notice; the script goes on', async () => {
    const dir = await tempDir();
    const lines: string[] = [];
    const notices: string[] = [];
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: parseScenario({
        turns: [
          { retry: {} },
          { undo: {} },
          { user: 'one' },
          { assistant: { text: 'first answer' } },
          { edit: { turn: 2, text: 'no such message' } },
          { restore: { turn: 3, conversation: false } },
          { user: 'two' },
          { assistant: { text: 'second answer' } },
          { user: 'three' },
          { assistant: { text: 'third answer' } },
          { compact: {} },
          { summary: 'The user said one, two and three.' },
          { user: 'four' },
          { assistant: { text: 'fourth answer' } },
          { retry: {} },
          { undo: {} },
          { edit: { turn: 1, text: 'one, edited' } },
          { restore: { turn: 1, conversation: true } },
          { restore: { turn: 1, conversation: false } },
          { user: 'five' },
          { assistant: { text: 'still here' } },
        ],
      }),
      onEvent: (event) => lines.push(...transcriptLines(event)),
      onNotice: (message) => notices.push(message),
    });
    const errors = lines.filter((line) => line.startsWith('[error:'));
    expect(errors).toEqual([
      '[error: retry] turn 0 (retry): there is nothing to retry: the last request did not fail, so every message has its answer. Script a fault before the request that should fail, or send a message instead.',
      '[error: undo] turn 1 (undo): there is nothing to undo: no compaction or elision is waiting (an undo is possible only until a request has used the generation it started).',
      '[error: edit] turn 4 (edit): there is no message 2: the conversation has 1 message of the user (counted from 1 along the active branch: an edit or a restore of the conversation drops the messages after it).',
      '[error: restore] turn 5 (restore): there is no message 3: the conversation has 1 message of the user (counted from 1 along the active branch: an edit or a restore of the conversation drops the messages after it).',
      '[error: retry] turn 14 (retry): there is nothing to retry: the last request did not fail, so every message has its answer. Script a fault before the request that should fail, or send a message instead.',
      '[error: undo] turn 15 (undo): there is nothing to undo: no compaction or elision is waiting (an undo is possible only until a request has used the generation it started).',
      '[error: edit] turn 16 (edit): message 1 is before the last compaction, so the conversation cannot start again from it. Edit a later message, or send the text as a new message.',
      '[error: restore] turn 17 (restore): message 1 is before the last compaction, so the conversation cannot go back to it; nothing was restored. Restore the files only ("conversation": false), or a later message.',
    ]);
    expect(notices).toEqual(errors.map((line) => line.replace(/^\[error: [a-z]+\] /, '')));
    // A files-only restore of a message before the compaction is what the editor allows; here nothing had changed.
    expect(lines).toContain(
      '[info] turn 18 (restore): Cairn has changed no files since message 1: there are no files to restore. The conversation is unchanged.',
    );
    // Every user turn still ran.
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn', 'end_turn', 'end_turn']);
    expect(result.retriedErrors).toBe(0);
  }, 60_000);
});

describe('a restore of files and conversation to before a message that changed no files', () => {
  it('the conversation goes back to before that message, not to the later one whose checkpoint restores the files', async () => {
    const dir = await tempDir();
    const workspace = join(dir, 'w');
    const result = await runHeadless({
      workspaceDir: workspace,
      outDir: join(dir, 'out'),
      scenario: parseScenario({
        workspace: { 'a.txt': 'v1\n' },
        turns: [
          { user: 'just talk' },
          { assistant: { text: 'talking' } },
          { user: 'now write a' },
          { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
          { assistant: { text: 'a written' } },
          { restore: { turn: 1, conversation: true } },
          { user: 'start over' },
          { assistant: { text: 'fresh' } },
          // No checkpoint from message 1 on any more (the restore's own is before it): the conversation alone goes back.
          { restore: { turn: 1, conversation: true } },
          { user: 'once more' },
          { assistant: { text: 'again fresh' } },
        ],
      }),
    });
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('v1\n');
    const answered = result.server!.requests.filter((r) => r.kind === 'main' && r.status === 200);
    const bodies = answered.map((r) => r.body as Body);
    for (const body of bodies) expect(violationsOf(body)).toEqual([]);
    // After each restore the conversation starts with the next message: message 1 is gone too.
    expect(bodies.at(-2)!.messages).toHaveLength(1);
    expect(bodies.at(-1)!.messages).toHaveLength(1);
    expect(sentText(bodies.at(-2)!)).not.toContain('just talk');
    expect(sentText(bodies.at(-2)!)).toContain('start over');
    expect(sentText(bodies.at(-1)!)).not.toContain('start over');
    expect(sentText(bodies.at(-1)!)).toContain('once more');
    const restores = result.events.flatMap((e) => (e.type === 'notice' && e.kind === 'scenario_restore' ? [e.message] : []));
    expect(restores).toEqual([
      'turn 5 (restore): restored 1 file to before message 1 (“just talk”): a.txt (written back). The conversation continues from before message 1 (generation 1).',
      'turn 8 (restore): Cairn has changed no files since message 1: there are no files to restore. The conversation continues from before message 1 (generation 2).',
    ]);
  }, 60_000);
});
