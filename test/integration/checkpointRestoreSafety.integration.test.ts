/**
 * Issue 28, cases 8–10, on a real session (the real tools on real files, the SDK against the local server,
 * real git): a restore checks each file again when it writes it and keeps the user's version whatever its
 * size first (8); it never writes through a link (9); it puts links back as links and files with their
 * executable bit (10), in a git workspace and in a plain folder.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RestorePlan } from '../../src/core/checkpoints/restorePlan';
import { CheckpointActions, type CheckpointPrompts } from '../../src/host/checkpointActions';
import { commandEnvironment } from '../../src/node/workspace/commandRunner';
import { startScenarioSession, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
const gitPorts = { env: commandEnvironment(process.env), trusted: () => true };
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
let open: ScenarioSession | undefined;
const outsideDirs: string[] = [];
afterEach(async () => {
  await open?.close();
  open = undefined;
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

function read(dir: string, path: string): string | null {
  const full = join(dir, path);
  return existsSync(full) ? readFileSync(full, 'utf8') : null;
}

function isLink(dir: string, path: string): boolean {
  try {
    return lstatSync(join(dir, path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A folder outside the workspace (a link's target a restore must never write to). */
function outside(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-outside-'));
  outsideDirs.push(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

/** A session whose one turn runs `command` in a git workspace prepared by `prepare` (committed first). */
async function commandTurn(
  files: Record<string, string>,
  command: string,
  prepare: (dir: string) => void = () => undefined,
): Promise<ScenarioSession> {
  return startScenarioSession(
    {
      model,
      workspace: files,
      turns: [{ assistant: { tool_calls: [{ name: 'bash', input: { command } }] } }, { assistant: { text: 'ran' } }],
    },
    {
      checkpointGit: gitPorts,
      prepareWorkspace: async (dir) => {
        prepare(dir);
        git(dir, 'init', '-q', '-b', 'main');
        git(dir, 'add', '-A');
        git(dir, 'commit', '-q', '-m', 'first');
      },
    },
  );
}

async function restoreAll(session: ScenarioSession['assembled']['session'], checkpointId: string) {
  const plan = await session.checkpoints!.preview(checkpointId);
  const choices = new Map(plan.items.filter((i) => i.conflict).map((i) => [i.path, 'take_checkpoint' as const]));
  return { plan, outcome: await session.restoreCheckpoint(plan, choices) };
}

describe('case 8: a restore checks each file again when it writes it, and keeps the user’s version first', () => {
  it('keeps a file the user saves between the preview and “Restore Files”, and says so', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'mine\n', 'b.txt': 'other\n', 'c.txt': 'third\n' },
      turns: [
        {
          assistant: {
            tool_calls: [
              { name: 'write', input: { path: 'a.txt', content: 'cairn a\n' } },
              { name: 'write', input: { path: 'b.txt', content: 'cairn b\n' } },
              { name: 'write', input: { path: 'new.txt', content: 'made\n' } },
              { name: 'write', input: { path: 'c.txt', content: 'cairn c\n' } },
            ],
          },
        },
        { assistant: { text: 'done' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('change them');
    const checkpoint = session.checkpoints!.list()[0]!;
    const plan = await session.checkpoints!.preview(checkpoint.id);
    expect(plan.items.every((i) => i.conflict === undefined)).toBe(true);
    // Between the preview and the click: the user saves a.txt, deletes new.txt and saves c.txt (a conflict
    // taken in the preview would be the same: the user chose to replace the version the preview showed).
    writeFileSync(join(dir, 'a.txt'), 'saved after the preview\n');
    rmSync(join(dir, 'new.txt'));
    writeFileSync(join(dir, 'c.txt'), 'cairn c\n'); // the same bytes again: not a change
    const outcome = await session.restoreCheckpoint(plan, new Map());
    expect(read(dir, 'a.txt')).toBe('saved after the preview\n');
    expect(read(dir, 'b.txt')).toBe('other\n');
    expect(read(dir, 'c.txt')).toBe('third\n');
    expect(read(dir, 'new.txt')).toBeNull();
    expect(outcome.changed.map((i) => i.path)).toEqual(['a.txt', 'new.txt']);
    expect(outcome.changed[0]!.conflict).toMatch(/changed it after the preview/);
    expect(outcome.restored.map((i) => i.path)).toEqual(['b.txt', 'c.txt']);
    // Previewed again, the file saved late is a conflict the user chooses on, like any other.
    const again = await session.checkpoints!.preview(checkpoint.id);
    expect(again.items.find((i) => i.path === 'a.txt')!.conflict).toMatch(/You changed it since/);
    // A file that became unsaved in the editor after the preview is kept too.
    const third = await session.checkpoints!.preview(checkpoint.id);
    const kept = await session.restoreCheckpoint(third, new Map(), { dirty: new Set(['b.txt']) });
    expect(kept.restored).toEqual([]);
  });

  it('in the editor’s flow, previews a file saved before “Restore Files” again as a conflict, and leaves a newly unsaved one', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'mine\n', 'b.txt': 'other\n' },
      turns: [
        {
          assistant: {
            tool_calls: [
              { name: 'write', input: { path: 'a.txt', content: 'cairn a\n' } },
              { name: 'write', input: { path: 'b.txt', content: 'cairn b\n' } },
            ],
          },
        },
        { assistant: { text: 'done' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('change them');
    const previews: RestorePlan[] = [];
    const notices: string[] = [];
    let dirtyNow = new Set<string>();
    const fakePrompts: CheckpointPrompts = {
      dirtyPaths: () => dirtyNow,
      preview: async (plan) => {
        previews.push(plan);
        if (previews.length > 1) return undefined; // the user looks at the conflict and keeps the file
        // While the modal is up the user saves a.txt and starts editing b.txt without saving.
        writeFileSync(join(dir, 'a.txt'), 'saved while the modal was up\n');
        dirtyNow = new Set(['b.txt']);
        return { paths: new Set(plan.items.filter((i) => !i.conflict).map((i) => i.path)), conversation: false };
      },
      pickChange: async () => undefined,
      openDiff: async () => undefined,
      info: (message) => notices.push(message),
    };
    const actions = new CheckpointActions({
      session: async () => ({ session }),
      digest: async () => {
        throw new Error('not used by restore');
      },
      prompts: fakePrompts,
      notice: (_kind, message) => notices.push(message),
    });
    await actions.restore(session.checkpoints!.list()[0]!.id);
    expect(read(dir, 'a.txt')).toBe('saved while the modal was up\n');
    expect(read(dir, 'b.txt')).toBe('cairn b\n');
    expect(notices[0]).toMatch(/You changed a\.txt, b\.txt after the preview, so Cairn did not write over them; the preview opens again/);
    expect(previews).toHaveLength(2);
    expect(previews[1]!.items.find((i) => i.path === 'a.txt')!.conflict).toMatch(/You changed it since/);
    expect(previews[1]!.items.find((i) => i.path === 'b.txt')!.conflict).toMatch(/unsaved changes/);
  });

  it('keeps the user’s version over 5 MB before writing over it, so undoing the restore brings it back', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'big.txt': 'small\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'big.txt', content: 'cairn\n' } }] } },
        { assistant: { text: 'ok' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('write it');
    const big = 'the user’s big file\n'.repeat(400_000); // about 9 MB
    writeFileSync(join(dir, 'big.txt'), big);
    const { plan, outcome } = await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(plan.items[0]!.conflict).toMatch(/over 5 MB/);
    expect(read(dir, 'big.txt')).toBe('small\n');
    const undo = await session.checkpoints!.preview(outcome.checkpoint!.id);
    expect(undo.items.map((i) => i.action)).toEqual(['restore']);
    await session.restoreCheckpoint(undo, new Map());
    expect(read(dir, 'big.txt')).toBe(big);
  });

  it('does not write over a file whose version it could not keep, and says why', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'mine\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'cairn\n' } }] } },
        { assistant: { text: 'ok' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('write it');
    const users = 'the user’s version, which the blob store cannot take\n';
    writeFileSync(join(dir, 'a.txt'), users);
    // The blob store's folder for this content is a file: storing it fails the way a full disk does.
    const sha = execFileSync('sha256sum', [join(dir, 'a.txt')], { encoding: 'utf8' }).slice(0, 64);
    const blobs = join(open.assembled.journal.sessionDir, 'checkpoints', 'blobs');
    rmSync(join(blobs, sha.slice(0, 2)), { recursive: true, force: true });
    writeFileSync(join(blobs, sha.slice(0, 2)), 'in the way');
    const { outcome } = await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(read(dir, 'a.txt')).toBe(users);
    expect(outcome.restored).toEqual([]);
    expect(outcome.unkept.map((u) => u.item.path)).toEqual(['a.txt']);
    expect(outcome.unkept[0]!.reason).toMatch(/could not keep your current version/);
  });
});

describe('case 9: a restore never writes through a link', () => {
  it('puts a file back over the link a command made, leaving the link’s target alone', async () => {
    open = await commandTurn({ 'a.txt': 'a original\n', 'b.txt': 'b original\n' }, 'rm a.txt && ln -s b.txt a.txt');
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('link it');
    expect(isLink(dir, 'a.txt')).toBe(true);
    const { plan } = await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(plan.items.map((i) => i.path)).toEqual(['a.txt']);
    expect(isLink(dir, 'a.txt')).toBe(false);
    expect(read(dir, 'a.txt')).toBe('a original\n');
    expect(read(dir, 'b.txt')).toBe('b original\n');
  });

  it('replaces a link to a file outside the workspace, and a folder turned into a link outside, without touching the outside', async () => {
    const away = outside({ 'x.txt': 'outside x\n', 'a.txt': 'outside a\n' });
    open = await commandTurn(
      { 'a.txt': 'a original\n', 'dir/x.txt': 'x original\n' },
      `rm a.txt && ln -s ${away}/a.txt a.txt && rm -r dir && ln -s ${away} dir`,
    );
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('link out');
    await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(read(away, 'a.txt')).toBe('outside a\n');
    expect(read(away, 'x.txt')).toBe('outside x\n');
    expect(isLink(dir, 'a.txt') || isLink(dir, 'dir')).toBe(false);
    expect(read(dir, 'a.txt')).toBe('a original\n');
    expect(read(dir, 'dir/x.txt')).toBe('x original\n');
  });

  it('in a plain folder, replaces a link the user made after the turn instead of writing its target', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'mine\n', 'b.txt': 'b stays\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'cairn\n' } }] } },
        { assistant: { text: 'ok' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('write it');
    rmSync(join(dir, 'a.txt'));
    symlinkSync('b.txt', join(dir, 'a.txt'));
    const { plan, outcome } = await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(plan.items[0]!.conflict).toBeDefined();
    expect(read(dir, 'b.txt')).toBe('b stays\n');
    expect(isLink(dir, 'a.txt')).toBe(false);
    expect(read(dir, 'a.txt')).toBe('mine\n');
    // The link the restore replaced is kept, as a link: undoing the restore puts it back.
    const undo = await session.checkpoints!.preview(outcome.checkpoint!.id);
    await session.restoreCheckpoint(undo, new Map());
    expect(readlinkSync(join(dir, 'a.txt'))).toBe('b.txt');
  });
});

describe('case 10: links come back as links, files with their executable bit', () => {
  it('in a git workspace: a committed link, a dangling link and an executable deleted by a command, and a chmod', async () => {
    open = await commandTurn(
      { 'target.txt': 'the target\n', 'run.sh': '#!/bin/sh\necho hi\n', 'tool.sh': '#!/bin/sh\n' },
      'rm link dangling run.sh && chmod -x tool.sh',
      (dir) => {
        symlinkSync('target.txt', join(dir, 'link'));
        symlinkSync('nowhere/at/all', join(dir, 'dangling'));
        chmodSync(join(dir, 'run.sh'), 0o755);
        chmodSync(join(dir, 'tool.sh'), 0o755);
      },
    );
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('delete them');
    const [checkpoint] = session.checkpoints!.list();
    expect(checkpoint!.files.map((f) => f.path).sort()).toEqual(['dangling', 'link', 'run.sh', 'tool.sh']);
    await restoreAll(session, checkpoint!.id);
    expect(readlinkSync(join(dir, 'link'))).toBe('target.txt');
    expect(readlinkSync(join(dir, 'dangling'))).toBe('nowhere/at/all');
    expect(read(dir, 'run.sh')).toBe('#!/bin/sh\necho hi\n');
    expect(statSync(join(dir, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(join(dir, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('in a plain folder: a link and an executable deleted by a patch come back as a link and an executable', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: { 'target.txt': 'the target\n', 'run.sh': '#!/bin/sh\necho hi\n' },
        turns: [
          {
            assistant: {
              tool_calls: [{ name: 'apply_patch', input: { patch: patch('*** Delete File: link', '*** Delete File: run.sh') } }],
            },
          },
          { assistant: { text: 'deleted' } },
        ],
      },
      {
        prepareWorkspace: async (dir) => {
          symlinkSync('target.txt', join(dir, 'link'));
          chmodSync(join(dir, 'run.sh'), 0o755);
        },
      },
    );
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('delete them');
    expect(existsSync(join(dir, 'run.sh'))).toBe(false);
    expect(isLink(dir, 'link')).toBe(false);
    expect(read(dir, 'target.txt')).toBe('the target\n');
    await restoreAll(session, session.checkpoints!.list()[0]!.id);
    expect(readlinkSync(join(dir, 'link'))).toBe('target.txt');
    expect(statSync(join(dir, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(read(dir, 'run.sh')).toBe('#!/bin/sh\necho hi\n');
  });
});
