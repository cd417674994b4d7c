import { sortedKeysJson } from './sortedKeysJson';

export interface SearchEntry {
  readonly id: string;
  /** SHA-256 of the full result body. */
  readonly sha: string;
}

/**
 * The searches dedupe table: for each call (tool and arguments as canonical JSON), the full results
 * it gave, oldest first. A call whose result equals one of them is answered "Same result as" the
 * earliest, so a result that changed and changed back still points at text the model has.
 */
export class SearchTable {
  private readonly calls: Map<string, SearchEntry[]>;

  constructor(state: ReadonlyArray<{ key: string; results: readonly SearchEntry[] }> = []) {
    this.calls = new Map(state.map((s) => [s.key, [...s.results]]));
  }

  static keyOf(tool: string, args: unknown): string {
    return sortedKeysJson({ args, tool });
  }

  findSame(key: string, sha: string): SearchEntry | undefined {
    return this.calls.get(key)?.find((e) => e.sha === sha);
  }

  add(key: string, entry: SearchEntry): void {
    const list = this.calls.get(key);
    if (list) list.push(entry);
    else this.calls.set(key, [entry]);
  }

  clear(): void {
    this.calls.clear();
  }

  state(): Array<{ key: string; results: SearchEntry[] }> {
    return [...this.calls].map(([key, results]) => ({ key, results: [...results] }));
  }
}
