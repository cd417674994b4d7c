import type { LoadedRecord } from '../journal/records';
import { branchFactsOf, type BranchFacts } from './branchFacts';
import type { TodoItem } from './todo';

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
   * Takes the active branch's facts after the conversation moved (a rewind, an undone compaction or
   * elision): the plan and the answers of an abandoned branch are dropped. The chat is told the plan.
   */
  adopt(facts: BranchFacts): void {
    this.turnCount = facts.turns;
    this.setTodo(facts.todo);
  }

  /** A reopened session's memory from its journal: the active branch's answers and latest plan (`branchFacts.ts`). */
  static fromRecords(records: Iterable<LoadedRecord>): WorkingMemory {
    const memory = new WorkingMemory();
    const facts = branchFactsOf(records);
    memory.turnCount = facts.turns;
    memory.items = facts.todo.map((item) => ({ ...item }));
    return memory;
  }
}
