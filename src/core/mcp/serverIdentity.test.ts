import { describe, expect, it } from 'vitest';
import { parseMcpJson, type McpConfigSource, type McpServerEntry } from './config';
import { canonicalMcpDefinition, mcpIdentityKey, mcpServerIdentity } from './serverIdentity';

const APP: McpConfigSource = { scope: 'workspace', origin: 'file:///work/app', label: 'app', inputsLabel: 'app inputs' };
const LIB: McpConfigSource = { ...APP, origin: 'file:///work/lib' };

function entry(server: unknown, source = APP): McpServerEntry {
  const parsed = parseMcpJson(JSON.stringify({ servers: { s: server } }), source);
  expect(parsed.problems).toEqual([]);
  return parsed.servers[0]!;
}

describe('mcpServerIdentity', () => {
  it('hashes the definition as written: the same however it is spelled, another when anything that runs changes', () => {
    const base = mcpServerIdentity(entry({ command: 'node', args: ['s.js'], env: { A: '1', B: '${input:token}' } }));
    expect(base).toMatchObject({ scope: 'workspace', origin: 'file:///work/app', name: 's' });
    expect(base.definitionHash).toMatch(/^[0-9a-f]{64}$/);
    // Key order, an explicit "type", a number written as text: the same definition.
    const same = mcpServerIdentity(entry({ env: { B: '${input:token}', A: 1 }, args: ['s.js'], type: 'stdio', command: 'node' }));
    expect(same.definitionHash).toBe(base.definitionHash);
    for (const changed of [
      { command: 'nodejs', args: ['s.js'], env: { A: '1', B: '${input:token}' } },
      { command: 'node', args: ['s.js', '--x'], env: { A: '1', B: '${input:token}' } },
      { command: 'node', args: ['s.js'], env: { A: '2', B: '${input:token}' } },
      { command: 'node', args: ['s.js'], env: { A: '1', B: '${input:token}', NODE_OPTIONS: '--require=x' } },
      { command: 'node', args: ['s.js'], env: { A: '1', B: '${input:token}' }, cwd: 'sub' },
      { command: 'node', args: ['s.js'], env: { A: '1', B: '${input:token}' }, envFile: '.env' },
    ]) {
      expect(mcpServerIdentity(entry(changed)).definitionHash, JSON.stringify(changed)).not.toBe(base.definitionHash);
    }
    expect(mcpServerIdentity(entry({ url: 'https://a.example/mcp' })).definitionHash).not.toBe(
      mcpServerIdentity(entry({ url: 'https://b.example/mcp' })).definitionHash,
    );
  });

  it("never holds an input's value: it hashes ${input:…} as written", () => {
    const written = entry({ command: 'node', env: { T: '${input:token}' } });
    expect(canonicalMcpDefinition(written)).toContain('${input:token}');
  });

  it('keys an identity by where it is defined too: the same server in another folder is another server', () => {
    const server = { command: 'node', args: ['s.js'] };
    const app = mcpServerIdentity(entry(server));
    const lib = mcpServerIdentity(entry(server, LIB));
    expect(app.definitionHash).toBe(lib.definitionHash);
    expect(mcpIdentityKey(app)).not.toBe(mcpIdentityKey(lib));
    expect(mcpIdentityKey(app)).toMatch(/^[0-9a-f]{32}$/);
    expect(mcpIdentityKey({ ...app, scope: 'user' })).not.toBe(mcpIdentityKey(app));
  });
});
