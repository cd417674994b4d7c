import type { ConversationEntry } from '../../../src/core/conversation/conversation';

/** A generation built call by call: each call is one assistant tool_use and one user tool_result. */
export class GenerationBuilder {
  readonly entries: ConversationEntry[] = [{ message: { role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] } }];
  private n = 0;

  call(name: string, input: Record<string, unknown>, result: string, isError = false): this {
    const id = `toolu_${++this.n}`;
    this.entries.push({ message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
    this.entries.push({
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result, ...(isError ? { is_error: true } : {}) }],
      },
    });
    return this;
  }

  read(id: string, path: string, sha: string, from = 1, to = 3, total = 3, stubOf?: string): this {
    const bracket = `[${id} ${path} lines ${from}-${to} of ${total} sha ${sha}]`;
    const text = stubOf
      ? `${bracket} Unchanged since ${stubOf}, which already shows lines 1-3.`
      : `${bracket}\n${Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: line ${from + i}`).join('\n')}`;
    return this.call('read', { path }, text);
  }

  edit(id: string, path: string): this {
    return this.call('edit', { path, old_string: 'a', new_string: 'b' }, `[${id} ${path} sha 00000000]\n@@ -1,1 +1,1 @@\n-a\n+b`);
  }

  bash(id: string, command: string, output = 'ok\n[exit code 0]'): this {
    return this.call('bash', { command }, `[${id}]\n${output}`);
  }

  grep(id: string, pattern: string, sameAs?: string): this {
    return this.call('grep', { pattern }, sameAs ? `[${id}] Same result as ${sameAs}.` : `[${id}]\nsrc/a.ts:1: x`);
  }
}
