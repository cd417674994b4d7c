import type { LoadedRecord } from '../journal/records';
import { parseTodoInput, TODO_TOOL_NAME, type TodoItem } from './todo';

/**
 * The session's working memory (issue 18, part 3): the model's plan (the `todo` tool's latest list)
 * and the turn count. Owned here; the todo tool sets the plan, the loop's events count turns, the
 * compactor reads it for the new generation's first message, the chat is told each change.
 */
export class WorkingMemory {
  private items: readonly TodoItem[] = [];
  private turnCount = 0;
  private readonly listeners = new Set<(items: readonly TodoItem[]) => void>();

  get todo(): readonly TodoItem[] {
    return this.items;
  }

  get turns(): number {
    return this.turnCount;
  }

  setTodo(items: readonly TodoItem[]): void {
    this.items = items.map((item) => ({ ...item }));
    for (const listener of this.listeners) listener(this.items);
  }

  noteTurn(): void {
    this.turnCount++;
  }

  onTodoChanged(listener: (items: readonly TodoItem[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * A reopened session's memory from its journal: the last valid `todo` call's list (whichever
   * generation holds it) and the model's answers counted as turns.
   */
  static fromRecords(records: readonly LoadedRecord[]): WorkingMemory {
    const memory = new WorkingMemory();
    for (const record of records) {
      if (record.type !== 'assistant_message') continue;
      memory.turnCount++;
      for (const block of record.message.content) {
        if (block.type !== 'tool_use' || block.name !== TODO_TOOL_NAME) continue;
        const parsed = parseTodoInput(block.input);
        if (parsed.ok) memory.items = parsed.items;
      }
    }
    return memory;
  }
}
