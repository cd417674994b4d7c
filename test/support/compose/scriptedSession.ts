/**
 * A deterministic, realistic growing conversation for tests: user asks, the assistant reads files,
 * greps, edits and runs commands, and the tool results look like the ledger's (bracket, numbered
 * lines, diffs, capped output, stubs, same-result answers). Append-only, like the loop's.
 */
import type { AssistantMessage, Message, UserMessage } from '../../../src/core/model/types';
import { seededRandom } from '../seededRandom';

const WORDS = [
  'config',
  'result',
  'ledger',
  'request',
  'stream',
  'window',
  'budget',
  'session',
  'model',
  'token',
  'cache',
  'entry',
  'value',
  'path',
  'index',
  'buffer',
  'reader',
  'writer',
  'options',
  'error',
];
const FILES = [
  'src/app.ts',
  'src/server/routes.ts',
  'src/lib/cache.ts',
  'src/lib/tokens.ts',
  'test/app.test.ts',
  'README.md',
  'package.json',
  'src/ui/panel.tsx',
];

export class ScriptedSession {
  readonly messages: Message[] = [];
  private readonly next: () => number;
  private toolCounter = 0;
  private resultCounter = 0x1000;

  constructor(seed = 7) {
    // Seeded so every run builds the same session.
    this.next = seededRandom(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  private word(): string {
    return this.pick(WORDS);
  }

  private codeLines(count: number): string[] {
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      const a = this.word();
      const b = this.word();
      const shape = Math.floor(this.next() * 5);
      if (shape === 0)
        lines.push(`export function ${a}${b[0]?.toUpperCase()}${b.slice(1)}(${a}: ${b === 'error' ? 'Error' : 'string'}): number {`);
      else if (shape === 1)
        lines.push(`  const ${a} = await this.${b}.get(${JSON.stringify(this.word())}, ${Math.floor(this.next() * 1000)});`);
      else if (shape === 2) lines.push(`  // Keep the ${a} ${b} stable: the prompt cache depends on it.`);
      else if (shape === 3) lines.push(`  if (!${a}) throw new Error(\`No ${b} for \${${a}}\`);`);
      else lines.push('}');
    }
    return lines;
  }

  private id(): string {
    return `#${(this.resultCounter++).toString(16)}`;
  }

  user(text: string): void {
    const message: UserMessage = { role: 'user', content: [{ type: 'text', text }] };
    this.messages.push(message);
  }

  /** One assistant step with a tool call and its result; returns the result id. */
  step(): string {
    const kind = this.pick(['read', 'read', 'grep', 'edit', 'bash', 'stub', 'same', 'list']);
    const path = this.pick(FILES);
    const callId = `toolu_${String(++this.toolCounter).padStart(4, '0')}`;
    const id = this.id();
    let name = kind;
    let input: Record<string, unknown> = { path };
    let content: string;
    switch (kind) {
      case 'read': {
        const total = 40 + Math.floor(this.next() * 260);
        const lines = this.codeLines(Math.min(total, 200));
        content = `[${id} ${path} lines 1-${lines.length} of ${total} sha ${Math.floor(this.next() * 0xffffffff)
          .toString(16)
          .padStart(8, '0')}]\n${lines.map((line, i) => `${i + 1}: ${line}`).join('\n')}`;
        break;
      }
      case 'stub':
        name = 'read';
        content = `[${id} ${path} lines 1-40 of 120 sha 1c9e04ab] Unchanged since #1003, which already shows lines 1-200.`;
        break;
      case 'grep': {
        const pattern = this.word();
        input = { pattern };
        const hits = 3 + Math.floor(this.next() * 20);
        const lines = Array.from(
          { length: hits },
          () => `${this.pick(FILES)}:${1 + Math.floor(this.next() * 300)}: ${this.codeLines(1)[0]}`,
        );
        content = `[${id}]\n${lines.join('\n')}`;
        break;
      }
      case 'same':
        name = 'grep';
        input = { pattern: 'cache' };
        content = `[${id}] Same result as #1002.`;
        break;
      case 'list':
        input = { path: 'src' };
        content = `[${id}]\n${FILES.join('\n')}`;
        break;
      case 'edit': {
        const before = this.codeLines(3);
        const after = this.codeLines(3);
        input = { path, old_string: before.join('\n'), new_string: after.join('\n') };
        content = `[${id} ${path} sha 7d0a91c3]\n@@ -12,3 +12,3 @@\n${before.map((l) => `-${l}`).join('\n')}\n${after.map((l) => `+${l}`).join('\n')}`;
        break;
      }
      default: {
        name = 'bash';
        input = { command: 'npm test' };
        const lines = Array.from(
          { length: 10 + Math.floor(this.next() * 60) },
          (_, i) => `  ✓ ${this.word()} ${this.word()} works (${i} ms)`,
        );
        content = `[${id}]\n> npm test\n${lines.join('\n')}\n\nTests: ${lines.length} passed`;
      }
    }
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: `I'll ${kind === 'edit' ? 'change' : 'look at'} ${path} to check the ${this.word()} ${this.word()}.` },
        { type: 'tool_use', id: callId, name, input },
      ],
    };
    this.messages.push(assistant);
    this.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content }] });
    return id;
  }

  /** The assistant's closing text for a turn. */
  reply(): void {
    this.messages.push({ role: 'assistant', content: [{ type: 'text', text: `Done: the ${this.word()} now keeps its ${this.word()}.` }] });
  }
}
