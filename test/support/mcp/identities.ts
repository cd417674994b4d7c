import type { McpServerIdentity } from '../../../src/core/mcp/types';

/**
 * Server identities for tests that build `McpServerConfig`s by hand (the product derives them from the
 * configuration, `src/core/mcp/serverIdentity.ts`): a made-up definition hash, since nothing is asked here.
 */
export function testUserIdentity(name: string, definitionHash = '0'.repeat(64)): McpServerIdentity {
  return { scope: 'user', origin: 'user', name, definitionHash };
}

/** A server of a folder's `.vscode/mcp.json`, for tests. */
export function testWorkspaceIdentity(name: string, folder = 'file:///workspace', definitionHash = '0'.repeat(64)): McpServerIdentity {
  return { scope: 'workspace', origin: folder, name, definitionHash };
}

/** The identity a hand-built config of this name and scope gets in tests. */
export function testIdentity(name: string, scope: 'user' | 'workspace'): McpServerIdentity {
  return scope === 'user' ? testUserIdentity(name) : testWorkspaceIdentity(name);
}
