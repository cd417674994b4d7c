/**
 * The slash commands Cairn starts with. Each is the palette command of the same name, so `/new` asks
 * before clearing a running session exactly as **Cairn: New Session** does, and `/compact` takes its
 * instructions from the text after it.
 */
import { errorMessage } from '../core/errorMessage';
import type { SlashCommands } from './slashCommands';

export interface SlashCommandTargets {
  /** Runs a palette command by id. */
  execute(command: string): Thenable<unknown> | Promise<unknown>;
  /** Compacts now with the user's instructions for the summary. */
  compact(instructions: string | undefined): Promise<void>;
  /** Shows a failure in the chat (a slash command runs from the chat). */
  showError(message: string): void;
}

export function addBuiltInSlashCommands(slash: SlashCommands, targets: SlashCommandTargets): void {
  const guarded = (name: string, run: (args: string) => Promise<unknown>) => async (args: string) => {
    try {
      await run(args);
    } catch (error) {
      targets.showError(`/${name} failed: ${errorMessage(error)}`);
    }
  };
  slash.add({
    name: 'compact',
    description: 'Summarize the older conversation to free context; the text after it says what to keep',
    argumentHint: '[instructions]',
    run: guarded('compact', (args) => targets.compact(args || undefined)),
  });
  slash.add({
    name: 'new',
    description: 'Start a new session (this one stays in the history)',
    run: guarded('new', async () => targets.execute('cairn.newSession')),
  });
  slash.add({
    name: 'report',
    description: 'Open the context report',
    run: guarded('report', async () => targets.execute('cairn.showReport')),
  });
  slash.add({
    name: 'export',
    description: 'Export this session as Markdown',
    run: guarded('export', async () => targets.execute('cairn.exportSession')),
  });
}
