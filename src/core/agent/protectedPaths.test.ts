import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../node/workspace/nodeWorkspace';
import { approvalVerdict } from './approval';
import { pathsWritten, protectedPathReason, protectedWriteReason } from './protectedPaths';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('protectedPathReason', () => {
  it('protects .git, .vscode, .cairn at any depth, workspace files and the root rules files, in any spelling', () => {
    for (const path of [
      '.git/hooks/pre-commit',
      '.git/config',
      '.git',
      'vendor/lib/.git/config',
      '.GIT/hooks/post-checkout',
      '.Git./config',
      '.git /config',
      '.g\u200cit/config',
      'GIT~1/config',
      './.git/config',
      '.git\\hooks\\pre-commit',
      '.vscode/settings.json',
      '.VSCode/tasks.json',
      'app/.vscode/launch.json',
      'team.code-workspace',
      'sub/Team.CODE-WORKSPACE',
      '.cairn/AGENTS.md',
      'AGENTS.md',
      'claude.md',
    ]) {
      expect([path, protectedPathReason(path)]).toEqual([path, expect.any(String)]);
    }
    expect(protectedPathReason('.git/hooks/pre-commit')).toMatch(/\.git\/.*run code/);
    for (const path of [
      'src/app.ts',
      '.gitignore',
      '.github/workflows/ci.yml',
      '.gitattributes',
      'docs/AGENTS.md',
      'git/config',
      'my.git/x',
      'vscode/settings.json',
    ]) {
      expect([path, protectedPathReason(path)]).toEqual([path, undefined]);
    }
  });
});

describe('pathsWritten', () => {
  it('lists every path of a patch, move destinations included, and the path of the other writing tools', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: notes.md',
      '+hi',
      '*** Update File: src/a.ts',
      '*** Move to: .vscode/settings.json',
      '@@',
      '-x',
      '+y',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    expect(pathsWritten('apply_patch', { patch })).toEqual(['notes.md', 'src/a.ts', '.vscode/settings.json', 'old.txt']);
    expect(pathsWritten('apply_patch', { patch: '*** Update File: .git/config\n' })).toEqual(['.git/config']);
    expect(pathsWritten('write', { path: 'a' })).toEqual(['a']);
    expect(pathsWritten('multiedit', { path: 'b', edits: [] })).toEqual(['b']);
    expect(pathsWritten('bash', { command: 'echo > .git/config' })).toEqual([]);
  });
});

describe('protectedWriteReason', () => {
  it('follows symbolic links: a write through a link into .git/hooks is protected', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-protected-'));
    dirs.push(root);
    await mkdir(join(root, '.git', 'hooks'), { recursive: true });
    await symlink(join(root, '.git', 'hooks'), join(root, 'tools'));
    await symlink('.vscode/settings.json', join(root, 'settings.json'));
    const workspace = new NodeWorkspace(root);
    expect(await protectedWriteReason('write', { path: 'tools/pre-commit', content: '' }, workspace)).toMatch(
      /\.git\/.*tools\/pre-commit is a link to \.git\/hooks\/pre-commit/,
    );
    expect(await protectedWriteReason('edit', { path: 'settings.json' }, workspace)).toMatch(/\.vscode\//);
    expect(await protectedWriteReason('write', { path: 'src/app.ts', content: '' }, workspace)).toBeUndefined();
    const patch = '*** Begin Patch\n*** Add File: ok.txt\n+a\n*** Add File: tools/post-checkout\n+b\n*** End Patch';
    expect(await protectedWriteReason('apply_patch', { patch }, workspace)).toMatch(/\.git\//);
  });

  it('makes an always-allowed tool ask, and an untrusted workspace refuse with the reason', () => {
    const reason = protectedPathReason('.git/config')!;
    expect(approvalVerdict('write', false, { alwaysAllow: new Set(['write']), workspaceTrusted: true }, reason)).toEqual({
      kind: 'ask',
      reason,
    });
    expect(approvalVerdict('write', false, { alwaysAllow: new Set(['write']), workspaceTrusted: true })).toEqual({ kind: 'run' });
    const refused = approvalVerdict('write', false, { alwaysAllow: new Set(['write']), workspaceTrusted: false }, reason);
    expect(refused.kind).toBe('refuse');
    expect(refused.kind === 'refuse' && refused.reason).toContain('.git/');
  });
});
