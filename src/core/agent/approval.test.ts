import { describe, expect, it } from 'vitest';
import { allowanceKeyOf, approvalVerdict, type McpToolOwner } from './approval';

const trusted = (allow: string[]) => ({ alwaysAllow: new Set(allow), workspaceTrusted: true });
const userServer = (prefix: string): McpToolOwner => ({ scope: 'user', prefix, alwaysKey: `mcp:user-${prefix}/create` });
const workspaceServer = (prefix: string): McpToolOwner => ({ scope: 'workspace', prefix, alwaysKey: `mcp:ws-${prefix}/create` });

describe('approvalVerdict for MCP tools', () => {
  it("asks for every MCP tool unless it, or its whole server, is allowed (the user's own servers)", () => {
    const memory = userServer('memory');
    expect(approvalVerdict('mcp__memory__create', false, trusted([]), undefined, memory)).toEqual({ kind: 'ask' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__memory__create']), undefined, memory)).toEqual({ kind: 'run' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__memory__*']), undefined, memory)).toEqual({ kind: 'run' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__other__*']), undefined, memory)).toEqual({ kind: 'ask' });
    // A wildcard is a server's, never a pattern over tool names.
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__mem__*', 'mcp__*']), undefined, memory)).toEqual({ kind: 'ask' });
  });

  it("never lets a workspace server's tool run by the user's cairn.approvals names (issue 28, case 2)", () => {
    const github = workspaceServer('github');
    expect(approvalVerdict('mcp__github__create', false, trusted(['mcp__github__*', 'mcp__github__create']), undefined, github)).toEqual({
      kind: 'ask',
    });
    // Its own "always" answer, under its identity, does.
    expect(approvalVerdict('mcp__github__create', false, trusted(['mcp:ws-github/create']), undefined, github)).toEqual({ kind: 'run' });
    // Another server's "always" answer does not, though the tool has the same name.
    expect(approvalVerdict('mcp__github__create', false, trusted(['mcp:user-github/create']), undefined, github)).toEqual({ kind: 'ask' });
  });

  it('an mcp__ name that is no MCP tool of the session is never allowed by a name, nor parsed for a server', () => {
    expect(approvalVerdict('mcp__github__x__y', false, trusted(['mcp__github__*', 'mcp__github__x__y']))).toEqual({ kind: 'ask' });
  });

  it('refuses MCP tools in an untrusted workspace, allowed or not', () => {
    const verdict = approvalVerdict(
      'mcp__memory__create',
      false,
      { alwaysAllow: new Set(['mcp__memory__*']), workspaceTrusted: false },
      undefined,
      userServer('memory'),
    );
    expect(verdict.kind).toBe('refuse');
  });
});

describe('the edit family is one allowance (issue 34, item 9)', () => {
  it('an "edits" allowance lets edit, multiedit, write and apply_patch run, and nothing else', () => {
    for (const tool of ['edit', 'multiedit', 'write', 'apply_patch']) {
      expect([tool, approvalVerdict(tool, false, trusted(['edits']))]).toEqual([tool, { kind: 'run' }]);
      expect(allowanceKeyOf(tool)).toBe('edits');
    }
    expect(approvalVerdict('bash', false, trusted(['edits']))).toEqual({ kind: 'ask' });
    expect(allowanceKeyOf('bash')).toBe('bash');
  });

  it('still asks for a protected path and refuses in an untrusted workspace', () => {
    expect(approvalVerdict('write', false, trusted(['edits']), 'writes .git/, where git runs code')).toEqual({
      kind: 'ask',
      reason: 'writes .git/, where git runs code',
    });
    expect(approvalVerdict('write', false, { alwaysAllow: new Set(['edits']), workspaceTrusted: false }).kind).toBe('refuse');
  });
});
