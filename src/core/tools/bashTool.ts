import { joinedLines } from '../text/lines';
import { sanitizeTerminalText, TerminalTextStream } from '../text/terminalText';
import { CLOSED_STATUS, SessionClosingStop, type Workspace } from '../ports';
import type { BashArgs } from './args';
import { errorOutcome, type ToolOutcome } from './outcome';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;

export interface BashContext {
  readonly signal?: AbortSignal;
  readonly onOutput?: (chunk: string) => void | Promise<void>;
}

export async function runBash(args: BashArgs, workspace: Workspace, context: BashContext = {}): Promise<ToolOutcome> {
  const timeoutMs = args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS;
  // Escapes and `\r` overwrites are made plain text before anyone sees the output (see terminalText.ts);
  // the stream and the final text go through the same rules, so they agree.
  const live = context.onOutput ? new TerminalTextStream() : undefined;
  const onOutput = context.onOutput;
  try {
    const result = await workspace.exec(args.command, {
      timeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
      ...(onOutput && live ? { onOutput: (chunk: string) => emitIfAny(onOutput, live.push(chunk)) } : {}),
    });
    if (onOutput && live) await emitIfAny(onOutput, live.end());
    const output = sanitizeTerminalText(result.output);
    // The same text as splitting the output into lines, adding these and joining them, without the split.
    const body = output === '' ? '(no output)' : joinedLines(output);
    let last: string | undefined;
    if (result.timedOut) last = `[timed out after ${timeoutMs} ms]`;
    else if (result.cancelled) last = context.signal?.reason instanceof SessionClosingStop ? CLOSED_STATUS : '[cancelled]';
    else if (result.exitCode === null) last = '[ended by a signal]';
    else if (result.exitCode !== 0) last = `[exit code ${result.exitCode}]`;
    return { type: 'output', text: last === undefined ? body : `${body}\n${last}`, ...(last !== undefined ? { status: last } : {}) };
  } catch (error) {
    return errorOutcome(`The command could not be started: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function emitIfAny(onOutput: (chunk: string) => void | Promise<void>, text: string): void | Promise<void> {
  if (text.length > 0) return onOutput(text);
}
