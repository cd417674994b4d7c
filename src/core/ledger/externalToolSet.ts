import type { ExternalToolOutcome, ExternalTools } from './types';

/** Several sets of tools outside the built-in ones (Cairn's skill and todo tools, MCP servers') as the ledger's one port. */
export class ExternalToolSet implements ExternalTools {
  private readonly sets: readonly ExternalTools[];

  constructor(sets: ReadonlyArray<ExternalTools | undefined>) {
    this.sets = sets.filter((set): set is ExternalTools => set !== undefined);
  }

  has(name: string): boolean {
    return this.sets.some((set) => set.has(name));
  }

  run(name: string, input: unknown, context: Parameters<ExternalTools['run']>[2]): Promise<ExternalToolOutcome> {
    const set = this.sets.find((s) => s.has(name));
    if (!set) return Promise.resolve({ text: `No tool named ${name}.`, isError: true, sameResultDedupe: false });
    return set.run(name, input, context);
  }
}
