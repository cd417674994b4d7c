import { describe, expect, it } from 'vitest';
import { approvalVerdict } from './approval';

const trusted = (allow: string[]) => ({ alwaysAllow: new Set(allow), workspaceTrusted: true });

describe('approvalVerdict for MCP tools', () => {
  it('asks for every MCP tool unless it, or its whole server, is allowed', () => {
    expect(approvalVerdict('mcp__memory__create', false, trusted([]))).toEqual({ kind: 'ask' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__memory__create']))).toEqual({ kind: 'run' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__memory__*']))).toEqual({ kind: 'run' });
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__other__*']))).toEqual({ kind: 'ask' });
    // A wildcard is a server's, never a pattern over tool names.
    expect(approvalVerdict('mcp__memory__create', false, trusted(['mcp__mem__*', 'mcp__*']))).toEqual({ kind: 'ask' });
  });

  it('refuses MCP tools in an untrusted workspace, allowed or not', () => {
    const verdict = approvalVerdict('mcp__memory__create', false, { alwaysAllow: new Set(['mcp__memory__*']), workspaceTrusted: false });
    expect(verdict.kind).toBe('refuse');
  });
});
