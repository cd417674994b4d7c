/**
 * Checkpoints on a real session: the real ledger and tools on real files, the real SDK against the local
 * server playing the script, real git for commands. Every change a turn makes is restored exactly; a file
 * the user changed since is a conflict and is kept; a restore is itself undone; the user's git state
 * (branches, index, stash) is byte-identical before and after.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resumeSession } from '../../src/core/session/node/sessionAssembly';
import { commandEnvironment } from '../../src/node/workspace/commandRunner';
import { mainRequests, startScenarioSession, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function read(dir: string, path: string): string | null {
  const full = join(dir, path);
  return existsSync(full) ? readFileSync(full, 'utf8') : null;
}

function tree(dir: string, paths: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(paths.map((p) => [p, read(dir, p)]));
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_OPTIONAL_LOCKS: '0',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

/** Everything of the user's git state a checkpoint must not touch. */
function gitState(dir: string): Record<string, string> {
  const index = createHash('sha256')
    .update(readFileSync(join(dir, '.git', 'index')))
    .digest('hex');
  return {
    index,
    status: git(dir, 'status', '--porcelain'),
    stash: git(dir, 'stash', 'list'),
    refs: git(dir, 'for-each-ref'),
    head: readFileSync(join(dir, '.git', 'HEAD'), 'utf8'),
  };
}

const gitPorts = { env: commandEnvironment(process.env), trusted: () => true };

describe('checkpoints of the editing tools', () => {
  it('restores an edit, a multi-file patch, a new file and a delete exactly, and undoes the restore', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'alpha\nbeta\n', 'b.txt': 'one\ntwo\n', 'c.txt': 'three\n', 'gone.txt': 'bye\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'edit', input: { path: 'a.txt', old_string: 'beta', new_string: 'BETA' } }] } },
        { assistant: { text: 'edited' } },
        {
          assistant: {
            tool_calls: [
              {
                name: 'apply_patch',
                input: {
                  patch: patch(
                    '*** Update File: b.txt',
                    '@@',
                    '-two',
                    '+TWO',
                    '*** Update File: c.txt',
                    '@@',
                    '-three',
                    '+THREE',
                    '*** Add File: new/made.txt',
                    '+fresh',
                    '*** Delete File: gone.txt',
                  ),
                },
              },
              { name: 'write', input: { path: 'a.txt', content: 'rewritten\n' } },
            ],
          },
        },
        { assistant: { text: 'patched' } },
      ],
    });
    const dir = open.workspaceDir;
    const paths = ['a.txt', 'b.txt', 'c.txt', 'gone.txt', 'new/made.txt'];
    const original = tree(dir, paths);
    const session = open.assembled.session;
    await session.send('edit a');
    await session.send('patch the rest');
    const afterTurns = tree(dir, paths);
    expect(afterTurns).toEqual({
      'a.txt': 'rewritten\n',
      'b.txt': 'one\nTWO\n',
      'c.txt': 'THREE\n',
      'gone.txt': null,
      'new/made.txt': 'fresh\n',
    });

    const checkpoints = session.checkpoints!.list();
    expect(checkpoints.map((c) => c.label)).toEqual(['edit a', 'patch the rest']);
    expect(checkpoints[0]!.turn).toEqual({ generation: 0, index: 0 });
    expect(checkpoints[1]!.files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'gone.txt', 'new/made.txt']);

    const plan = await session.checkpoints!.preview(checkpoints[0]!.id);
    expect(Object.fromEntries(plan.items.map((i) => [i.path, i.action]))).toEqual({
      'a.txt': 'restore',
      'b.txt': 'restore',
      'c.txt': 'restore',
      'gone.txt': 'recreate',
      'new/made.txt': 'delete',
    });
    expect(plan.items.every((i) => i.conflict === undefined)).toBe(true);
    const outcome = await session.restoreCheckpoint(plan, new Map());
    expect(outcome.restored).toHaveLength(5);
    expect(tree(dir, paths)).toEqual(original);

    // The restore is a checkpoint of its own: restoring to before it brings the turns' work back.
    const undo = await session.checkpoints!.preview(outcome.checkpoint!.id);
    await session.restoreCheckpoint(undo, new Map());
    expect(tree(dir, paths)).toEqual(afterTurns);
  });

  it('reports a file the user changed since as a conflict and keeps it unless told to take the checkpoint', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'mine\n', 'b.txt': 'other\n' },
      turns: [
        {
          assistant: {
            tool_calls: [
              { name: 'write', input: { path: 'a.txt', content: 'cairn\n' } },
              { name: 'write', input: { path: 'b.txt', content: 'cairn b\n' } },
            ],
          },
        },
        { assistant: { text: 'done' } },
        { assistant: { text: 'noted' } },
      ],
    });
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('change both');
    writeFileSync(join(dir, 'a.txt'), 'the user typed this\n');
    const checkpoint = session.checkpoints!.list()[0]!;
    const plan = await session.checkpoints!.preview(checkpoint.id);
    const a = plan.items.find((i) => i.path === 'a.txt')!;
    expect(a.conflict).toMatch(/You changed it since/);
    expect(plan.items.find((i) => i.path === 'b.txt')!.conflict).toBeUndefined();

    const outcome = await session.restoreCheckpoint(plan, new Map([['a.txt', 'keep_mine']]));
    expect(outcome.kept.map((i) => i.path)).toEqual(['a.txt']);
    expect(read(dir, 'a.txt')).toBe('the user typed this\n');
    expect(read(dir, 'b.txt')).toBe('other\n');

    // An unsaved editor buffer is a conflict too, even when the file on disk is unchanged.
    const dirty = await session.checkpoints!.preview(checkpoint.id, new Set(['b.txt']));
    expect(dirty.items.find((i) => i.path === 'b.txt')!.conflict).toMatch(/unsaved changes/);

    // Taking the checkpoint explicitly is the one way to overwrite a conflict.
    const again = await session.checkpoints!.preview(checkpoint.id);
    await session.restoreCheckpoint(again, new Map([['a.txt', 'take_checkpoint']]));
    expect(read(dir, 'a.txt')).toBe('mine\n');

    // The next message tells the model which files were restored, in a block Cairn wrote.
    await session.send('what now?');
    const body = mainRequests(open.server).at(-1) as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
    const last = body.messages.at(-1)!;
    expect(last.content[0]!.text).toContain('files_restored');
    expect(last.content[0]!.text).toContain('- a.txt');
    expect(last.content[0]!.text).toContain('- b.txt');
    expect(last.content.at(-1)!.text).toBe('what now?');
  });

  it('keeps its checkpoints across a reopen, and restores files and conversation as a new generation', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'v1\n' },
      turns: [
        { assistant: { text: 'hello' } },
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'wrote' } },
      ],
    });
    const dir = open.workspaceDir;
    await open.assembled.session.send('just talk');
    await open.assembled.session.send('write v2');
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();

    const resumed = await resumeSession(open.ports, sessionId);
    try {
      const session = resumed.session;
      const [checkpoint] = session.checkpoints!.list();
      expect(checkpoint!.label).toBe('write v2');
      expect(session.checkpoints!.checkpointFrom({ generation: 0, index: 2 })?.id).toBe(checkpoint!.id);
      expect(session.checkpoints!.checkpointFrom({ generation: 0, index: 0 })?.id).toBe(checkpoint!.id);
      const plan = await session.checkpoints!.preview(checkpoint!.id);
      await session.restoreCheckpoint(plan, new Map(), { conversation: true });
      expect(read(dir, 'a.txt')).toBe('v1\n');
      expect(session.generation.number).toBe(1);
      expect(session.generation.conversation.length).toBe(2);
      expect(session.checkpoints!.takeNotes()).toEqual([]);
    } finally {
      await resumed.dispose();
    }
    // The new generation is what a second reopen continues from.
    const again = await resumeSession(open.ports, sessionId);
    try {
      expect(again.session.generation.number).toBe(1);
      expect(again.session.generation.conversation.length).toBe(2);
    } finally {
      await again.dispose();
    }
  });
});

describe('checkpoints of commands in a git workspace', () => {
  it('restores sed -i, mv and a generated file exactly, leaving branches, index and stash byte-identical', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.txt': 'x marks\n', 'b.txt': 'moved\n', 'staged.txt': 's0\n', 'keep.txt': 'k\n', '.gitignore': 'ignored/\n' },
        turns: [
          {
            assistant: {
              tool_calls: [
                {
                  name: 'bash',
                  input: {
                    command: "sed -i 's/x/y/' a.txt && mv b.txt b2.txt && echo gen > gen.txt && mkdir -p ignored && echo i > ignored/i.txt",
                  },
                },
              ],
            },
          },
          { assistant: { text: 'ran' } },
        ],
      },
      {
        checkpointGit: gitPorts,
        prepareWorkspace: async (dir) => {
          git(dir, 'init', '-q', '-b', 'main');
          git(dir, 'add', '-A');
          git(dir, 'commit', '-q', '-m', 'first');
          writeFileSync(join(dir, 'keep.txt'), 'k stashed\n');
          git(dir, 'stash', '-q');
          writeFileSync(join(dir, 'staged.txt'), 's1 staged\n');
          git(dir, 'add', 'staged.txt');
          writeFileSync(join(dir, 'keep.txt'), 'k unstaged\n');
          writeFileSync(join(dir, 'untracked.txt'), 'u\n');
        },
      },
    );
    const dir = open.workspaceDir;
    const paths = ['a.txt', 'b.txt', 'b2.txt', 'gen.txt', 'staged.txt', 'keep.txt', 'untracked.txt'];
    const before = tree(dir, paths);
    const stateBefore = gitState(dir);
    const session = open.assembled.session;
    await session.send('run the command');
    expect(read(dir, 'a.txt')).toBe('y marks\n');
    expect(read(dir, 'b2.txt')).toBe('moved\n');
    const [checkpoint] = session.checkpoints!.list();
    expect(checkpoint!.files.map((f) => [f.path, f.source]).sort()).toEqual([
      ['a.txt', 'command'],
      ['b.txt', 'command'],
      ['b2.txt', 'command'],
      ['gen.txt', 'command'],
    ]);
    const plan = await session.checkpoints!.preview(checkpoint!.id);
    await session.restoreCheckpoint(plan, new Map());
    expect(tree(dir, paths)).toEqual(before);
    // Ignored files are not part of a checkpoint: left as the command made them.
    expect(read(dir, 'ignored/i.txt')).toBe('i\n');
    expect(gitState(dir)).toEqual(stateBefore);
  });
});

describe('checkpoints of commands outside git (issue 34, item 5)', () => {
  it('restores a file a command deleted and one it overwrote, and the approval said what would not be kept', async () => {
    const asked: Array<string | undefined> = [];
    open = await startScenarioSession(
      {
        model,
        workspace: { 'notes.md': '# Notes\n', 'data.txt': 'old data\n' },
        turns: [
          {
            assistant: {
              tool_calls: [{ name: 'bash', input: { command: 'rm notes.md && printf "new\\n" > data.txt && rm -f ../gone.txt' } }],
            },
          },
          { assistant: { text: 'ran' } },
        ],
      },
      {
        checkpointGit: gitPorts,
        approver: {
          request: async (request) => {
            asked.push(request.detail?.notKept);
            return { kind: 'allow' };
          },
        },
        prepareWorkspace: async (dir) => {
          writeFileSync(join(dir, '..', 'gone.txt'), 'outside\n');
        },
      },
    );
    const dir = open.workspaceDir;
    const session = open.assembled.session;
    await session.send('run the command');
    expect(asked).toEqual(['Not kept if this command changes or deletes them: ../gone.txt (outside the workspace).']);
    expect(read(dir, 'notes.md')).toBeNull();
    const [checkpoint] = session.checkpoints!.list();
    expect(checkpoint!.files.map((f) => [f.path, f.source, f.before.kind]).sort()).toEqual([
      ['data.txt', 'command', 'content'],
      ['notes.md', 'command', 'content'],
    ]);
    const plan = await session.checkpoints!.preview(checkpoint!.id);
    await session.restoreCheckpoint(plan, new Map());
    expect(tree(dir, ['notes.md', 'data.txt'])).toEqual({ 'notes.md': '# Notes\n', 'data.txt': 'old data\n' });
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });
});
