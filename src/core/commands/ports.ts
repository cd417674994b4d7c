import type { CommandProblem, CustomCommand } from './customCommand';

/** What discovery found: the usable commands by name (the workspace's winning a clash) and the files skipped. */
export interface CommandDiscovery {
  /** Sorted by name. */
  readonly commands: readonly CustomCommand[];
  readonly problems: readonly CommandProblem[];
}

/**
 * Port: finds custom slash commands on disk (`src/node/fileCommandSource.ts`). Workspace commands are left
 * out by the implementation when the workspace is not trusted.
 */
export interface CommandSource {
  discover(): Promise<CommandDiscovery>;
}

export const noCommands: CommandSource = { discover: async () => ({ commands: [], problems: [] }) };
