import { splitLines } from '../ledger/lines';
import type { Workspace } from '../ports';
import type { BashArgs } from './args';
import { errorOutcome, type ToolOutcome } from './outcome';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;

export interface BashContext {
  readonly signal?: AbortSignal;
  readonly onOutput?: (chunk: string) => void;
}

export async function runBash(args: BashArgs, workspace: Workspace, context: BashContext = {}): Promise<ToolOutcome> {
  const timeoutMs = args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS;
  try {
    const result = await workspace.exec(args.command, {
      timeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.onOutput ? { onOutput: context.onOutput } : {}),
    });
    const lines = splitLines(result.output);
    if (lines.length === 0) lines.push('(no output)');
    if (result.timedOut) lines.push(`[timed out after ${timeoutMs} ms]`);
    else if (result.cancelled) lines.push('[cancelled]');
    else if (result.exitCode === null) lines.push('[ended by a signal]');
    else if (result.exitCode !== 0) lines.push(`[exit code ${result.exitCode}]`);
    return { type: 'text', lines };
  } catch (error) {
    return errorOutcome(`The command could not be started: ${error instanceof Error ? error.message : String(error)}`);
  }
}
