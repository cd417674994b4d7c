/** A tool call checked against the tool definitions an agent really sent: name, required fields, known fields, types. */
import type { ScriptedToolCall } from '../../src/node/scenario/types';

interface Schema {
  readonly properties?: Record<string, { type?: string | string[] }>;
  readonly required?: readonly string[];
}

export function callProblems(call: ScriptedToolCall, tools: readonly { name: string; input_schema?: unknown }[]): string[] {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return [`${call.name}: the agent has no such tool (it has ${tools.map((t) => t.name).join(', ')})`];
  const schema = (tool.input_schema ?? {}) as Schema;
  const input = call.input as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of schema.required ?? []) if (!(field in input)) problems.push(`${call.name}.${field}: required`);
  for (const [field, value] of Object.entries(input)) {
    const spec = schema.properties?.[field];
    if (!spec) {
      problems.push(`${call.name}.${field}: not in the schema`);
      continue;
    }
    const types = spec.type === undefined ? [] : Array.isArray(spec.type) ? spec.type : [spec.type];
    const actual = Array.isArray(value)
      ? 'array'
      : value === null
        ? 'null'
        : typeof value === 'number' && Number.isInteger(value)
          ? 'integer'
          : typeof value;
    if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number')))
      problems.push(`${call.name}.${field}: ${actual}, expected ${types.join('|')}`);
  }
  return problems;
}
