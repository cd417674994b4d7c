/** Tools beyond the built-in ones (MCP servers'): listed at each generation's start, fixed within it, each server its own source. */
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../model/types';
import { TOOL_DEFINITIONS } from '../tools/definitions';
import { Composer } from './composer';
import { DecisionQueue } from './decisions';
import { emptyProjectContext } from './projectContextSource';
import { noRules } from './rules';

const mcpTool = (name: string): ToolDefinition => ({
  name,
  description: `[MCP server] ${name}`,
  input_schema: { type: 'object', properties: {} },
});

function composerWith(extra: () => ToolDefinition[]) {
  let listings = 0;
  const composer = new Composer({
    tools: TOOL_DEFINITIONS,
    preamble: 'You are Cairn.',
    rules: noRules,
    projectContext: emptyProjectContext,
    sessionDate: '2026-12-01',
    decisions: new DecisionQueue(),
    extraTools: async () => {
      listings++;
      return extra();
    },
  });
  const compose = (generation = 0) =>
    composer.compose({
      model: 'claude-sonnet-4-5',
      maxTokens: 1000,
      generation,
      conversation: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      purpose: 'main',
      decisions: [],
    });
  return { composer, compose, listings: () => listings };
}

describe('Composer extraTools', () => {
  it('offers them sorted with the built-in tools; the report shows each server as its own source', async () => {
    const { composer, compose } = composerWith(() => [mcpTool('mcp__zeta__b'), mcpTool('mcp__alpha__a'), mcpTool('mcp__alpha__c')]);
    await composer.prepare();
    const { request, snapshot } = compose();
    const names = request.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['mcp__alpha__a', 'mcp__alpha__c', 'mcp__zeta__b']));
    const toolSources = snapshot.sources.filter((s) => s.zone === 'tools');
    expect(toolSources.map((s) => [s.source, s.label])).toEqual([
      ['tools', `${TOOL_DEFINITIONS.length} tools`],
      ['mcp_tools', 'alpha: 2 tools'],
      ['mcp_tools', 'zeta: 1 tools'],
    ]);
    expect(toolSources.reduce((sum, s) => sum + s.bytes, 0)).toBe(snapshot.bytes.tools);
  });

  it('are listed once per generation: a change reaches the request only after a new generation starts', async () => {
    let current = [mcpTool('mcp__s__one')];
    const { composer, compose, listings } = composerWith(() => current);
    await composer.prepare();
    expect(compose().request.tools.some((t) => t.name === 'mcp__s__one')).toBe(true);
    current = [mcpTool('mcp__s__two')];
    const same = compose().request;
    expect(same.tools.some((t) => t.name === 'mcp__s__two')).toBe(false);
    expect(listings()).toBe(1);
    await composer.startGeneration();
    const next = compose(1).request;
    expect(next.tools.some((t) => t.name === 'mcp__s__two')).toBe(true);
    expect(listings()).toBe(2);
  });
});
