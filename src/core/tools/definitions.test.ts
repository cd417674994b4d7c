import { describe, expect, it } from 'vitest';
import { isReadOnlyTool, summarizeToolCall, TOOL_DEFINITIONS } from './definitions';

describe('TOOL_DEFINITIONS', () => {
  it('lists the ten tools sorted by name, each with a closed object schema', () => {
    expect(TOOL_DEFINITIONS.map((t) => t.name)).toEqual([
      'apply_patch',
      'bash',
      'edit',
      'glob',
      'grep',
      'list',
      'multiedit',
      'read',
      'recall',
      'write',
    ]);
    for (const tool of TOOL_DEFINITIONS) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.input_schema.type).toBe('object');
      expect(tool.input_schema.additionalProperties).toBe(false);
    }
  });

  it('marks the contract arguments required', () => {
    const schema = (name: string) => TOOL_DEFINITIONS.find((t) => t.name === name)!.input_schema;
    expect(schema('read').required).toEqual(['path']);
    expect(schema('edit').required).toEqual(['path', 'old_string', 'new_string']);
    expect(schema('list').required).toEqual([]);
    expect(Object.keys(schema('grep').properties)).toEqual(['pattern', 'path', 'glob', 'ignore_case']);
  });
});

describe('isReadOnlyTool', () => {
  it('is true for read, list, glob, grep and recall only', () => {
    expect(['read', 'list', 'glob', 'grep', 'recall'].every(isReadOnlyTool)).toBe(true);
    expect(['write', 'edit', 'multiedit', 'apply_patch', 'bash', 'nope'].some(isReadOnlyTool)).toBe(false);
  });
});

describe('summarizeToolCall', () => {
  it('shows the key argument in one short line', () => {
    expect(summarizeToolCall('read', { path: 'src/app.ts' })).toBe('read src/app.ts');
    expect(summarizeToolCall('bash', { command: 'npm   test\n  --silent' })).toBe('bash npm test --silent');
    expect(
      summarizeToolCall('apply_patch', {
        patch: '*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+x\n*** End Patch',
      }),
    ).toBe('apply_patch a.ts, b.ts');
    expect(summarizeToolCall('list', {})).toBe('list .');
    expect(summarizeToolCall('unknown', { a: 1 })).toBe('unknown');
    expect(summarizeToolCall('read', null)).toBe('read');
    expect(summarizeToolCall('bash', { command: 'x'.repeat(200) }).length).toBeLessThanOrEqual(85);
  });
});
