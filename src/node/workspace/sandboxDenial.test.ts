import { describe, expect, it } from 'vitest';
import { sandboxDenialLine } from './sandboxDenial';

const CONFINE = {
  writable: ['/home/ada/project'],
  readOnly: [],
  hidden: [{ path: '/home/ada/.ssh', kind: 'folder' as const }],
  network: false,
};

describe("the sandbox's line in a failed command's result", () => {
  it('names a write Node refused (EROFS) with its path', () => {
    const output = "Error: EROFS: read-only file system, open '/home/ada/.config/tool.json'\n";
    expect(sandboxDenialLine(output, CONFINE, '/home/ada')).toMatch(
      /^\[Cairn sandbox\] The sandbox denied writing outside the workspace \(\/home\/ada\/\.config\/tool\.json\)\./,
    );
  });

  it('names a hidden credential as ~/…', () => {
    expect(sandboxDenialLine('cat: /home/ada/.ssh/id_rsa: Permission denied\n', CONFINE, '/home/ada')).toContain('denied reading ~/.ssh');
  });

  it('names the network, and the setting that allows it; not when the network is allowed', () => {
    const output = 'npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\n';
    const line = sandboxDenialLine(output, CONFINE, '/home/ada');
    expect(line).toContain('denied the network');
    expect(line).toContain('"cairn.sandboxNetwork": true');
    expect(sandboxDenialLine(output, { ...CONFINE, network: true }, '/home/ada')).toBeUndefined();
  });

  it('says nothing about an ordinary failure, or a permission error elsewhere', () => {
    expect(sandboxDenialLine('1 failing\n', CONFINE, '/home/ada')).toBeUndefined();
    expect(sandboxDenialLine('cat: /etc/shadow: Permission denied\n', CONFINE, '/home/ada')).toBeUndefined();
  });
});
