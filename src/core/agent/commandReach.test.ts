import { describe, expect, it } from 'vitest';
import type { CommandSandboxState } from '../ports';
import { commandBeyondSandbox } from './commandReach';

const held: CommandSandboxState = { sandboxAvailable: true, network: false, writable: ['/home/u/project', '/home/u/.npm'] };

describe('what auto mode asks for: a command beyond what the sandbox holds', () => {
  it('runs a command inside the workspace without asking', () => {
    for (const command of [
      'npm test',
      'echo hi > out.txt && cat out.txt',
      'ls /usr/lib | head',
      'cp a.txt /home/u/project/b.txt',
      'make 2>/dev/null',
    ])
      expect(commandBeyondSandbox(command, held), command).toBeUndefined();
  });

  it('asks when there is no sandbox, saying why', () => {
    expect(commandBeyondSandbox('npm test', { sandboxAvailable: false, reason: 'bubblewrap is not installed' })).toMatch(
      /no sandbox here \(bubblewrap is not installed\)/,
    );
    expect(commandBeyondSandbox('npm test', undefined)).toMatch(/no sandbox here/);
  });

  it('asks for a command that needs the network when the sandbox withholds it, and not when it is allowed', () => {
    for (const command of [
      'curl https://example.com',
      'git push origin main',
      'npm install left-pad',
      'cd x && FOO=1 pip install -r req.txt',
      'npx cowsay',
    ])
      expect(commandBeyondSandbox(command, held), command).toMatch(/needs the network/);
    expect(commandBeyondSandbox('git status', held)).toBeUndefined();
    expect(commandBeyondSandbox('curl https://example.com', { ...held, network: true })).toBeUndefined();
  });

  it('asks for a write outside the writable folders', () => {
    for (const command of [
      'echo x > /etc/hosts',
      'cp a ~/bin/a',
      'rm -rf /home/u/other',
      'tee -a /home/u/.bashrc',
      'echo x >>/home/u/project/../evil',
    ])
      expect(commandBeyondSandbox(command, held), command).toMatch(/outside the folders/);
  });

  it('asks for a command that names a protected path: the sandbox keeps the workspace, .git included, writable', () => {
    for (const command of ['echo x > .git/hooks/pre-commit', 'cp evil.json .vscode/tasks.json', 'echo rule >> AGENTS.md'])
      expect(commandBeyondSandbox(command, held), command).toMatch(/protected path/);
  });
});
