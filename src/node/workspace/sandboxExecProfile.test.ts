import { describe, expect, it } from 'vitest';
import { sandboxExecProfile } from './sandboxExecProfile';

const CONFINE = {
  writable: ['/Users/ada/project', '/Users/ada/.npm'],
  readOnly: ['/Users/ada/.npm/_npx'],
  hidden: [
    { path: '/Users/ada/.ssh', kind: 'folder' as const },
    { path: '/Users/ada/.netrc', kind: 'file' as const },
  ],
  network: false,
};

describe('the macOS sandbox-exec profile', () => {
  it('denies by default, reads everywhere, writes only in the writable folders and the temporary ones', () => {
    const profile = sandboxExecProfile(CONFINE);
    const lines = profile.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(profile).toContain('(allow file-read*)\n');
    expect(profile).toContain(
      '(allow file-write* (subpath "/Users/ada/project") (subpath "/Users/ada/.npm") (subpath "/private/tmp") (subpath "/private/var/folders")',
    );
    expect(profile).toContain('(allow process-info* (target same-sandbox))');
  });

  it('hides the credentials and keeps the cache programs read-only, after the rules they narrow (the last match wins)', () => {
    const lines = sandboxExecProfile(CONFINE).trim().split('\n');
    const allowWrite = lines.findIndex((l) => l.startsWith('(allow file-write*'));
    const readOnly = lines.indexOf('(deny file-write* (subpath "/Users/ada/.npm/_npx"))');
    const hidden = lines.indexOf('(deny file-read* file-write* (subpath "/Users/ada/.ssh") (literal "/Users/ada/.netrc"))');
    expect(readOnly).toBeGreaterThan(allowWrite);
    expect(hidden).toBeGreaterThan(lines.indexOf('(allow file-read*)'));
  });

  it('allows the network only when the setting does', () => {
    expect(sandboxExecProfile(CONFINE)).not.toContain('network');
    expect(sandboxExecProfile({ ...CONFINE, network: true })).toContain('(allow network*)');
  });

  it('quotes a path so it cannot end the string and add a rule', () => {
    const profile = sandboxExecProfile({ ...CONFINE, writable: ['/Users/ada/x") (allow network*) ("', '/Users/ada/back\\slash'] });
    expect(profile).toContain('(subpath "/Users/ada/x\\") (allow network*) (\\"")');
    expect(profile).toContain('(subpath "/Users/ada/back\\\\slash")');
    expect(profile.split('\n').filter((l) => l === '(allow network*)')).toEqual([]);
  });
});
