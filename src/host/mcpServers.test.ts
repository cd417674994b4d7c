import { describe, expect, it } from 'vitest';
import { FakeMcpConnections } from '../../test/support/mcp/fakeMcpConnections';
import { testWorkspaceIdentity } from '../../test/support/mcp/identities';
import type { McpServerConfig } from '../core/mcp/types';
import { McpServers } from './mcpServers';
import type { LoadedMcpServers } from './mcpSetup';

const server = (name: string, command = 'node'): McpServerConfig => ({
  name,
  scope: 'workspace',
  identity: testWorkspaceIdentity(name),
  transport: { type: 'stdio', command, args: [], env: {} },
});

function setup() {
  let loaded: LoadedMcpServers = { servers: [server('a')], notStarted: [], problems: [] };
  const made: Array<{ connections: FakeMcpConnections; closed: boolean }> = [];
  const servers = new McpServers(
    async () => loaded,
    () => {
      const entry = { connections: new FakeMcpConnections([]), closed: false };
      entry.connections.close = async () => {
        entry.closed = true;
      };
      made.push(entry);
      return entry.connections;
    },
  );
  return { servers, made, set: (next: LoadedMcpServers) => (loaded = next) };
}

describe('McpServers', () => {
  it('reuses the connections while the configuration is the same, and replaces them (closing the old) when it changes', async () => {
    const { servers, made, set } = setup();
    const first = await servers.forSession();
    expect(await servers.forSession()).toBe(first);
    expect(made).toHaveLength(1);
    set({ servers: [server('a', 'other')], notStarted: [], problems: [] });
    const second = await servers.forSession();
    expect(second).not.toBe(first);
    expect(made.map((m) => m.closed)).toEqual([true, false]);
  });

  it('none configured: no connections, and the previous ones closed; close() closes what is open', async () => {
    const { servers, made, set } = setup();
    await servers.forSession();
    set({ servers: [], notStarted: [], problems: ['bad entry'] });
    expect(await servers.forSession()).toBeUndefined();
    expect(made[0]!.closed).toBe(true);
    set({ servers: [server('b')], notStarted: [], problems: [] });
    await servers.forSession();
    await servers.close();
    expect(made[1]!.closed).toBe(true);
  });
});
