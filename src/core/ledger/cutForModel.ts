/**
 * How a body over the cap is cut for the model (`cairn.commandOutput`, hygiene `cap.command_output`):
 * `head-tail` is spec 3.0.0's cap (the default); `failures` shapes a command's output around what its
 * runner or compiler reports (outputShape/shapeOutput.ts). Both keep the whole output in the store, named by every
 * gap's line, so `recall` shows any line that was left out.
 */
import type { HygieneConfig } from '../config/hygiene';
import { bodyChars, capBody, capText, type CapLimits } from './cap';
import { shapeCommandOutput } from './outputShape/shapeOutput';

/**
 * What the model is shown of a body over the cap, or undefined when it is within it (shown as it is):
 * the spec's head and tail, or for a command's output (`isCommand`: it has a status line) under
 * `cap.command_output: "failures"`, its shape, never longer than the head and tail.
 */
export function cutForModel(
  body: readonly string[] | string,
  resultId: string,
  config: CapLimits & Pick<HygieneConfig, 'cap.command_output'>,
  isCommand: boolean,
): readonly string[] | undefined {
  const capped = typeof body === 'string' ? capText(body, resultId, config) : capBody(body, resultId, config);
  if (!capped.capped || !capped.lines) return undefined;
  if (typeof body === 'string' && isCommand && config['cap.command_output'] === 'failures') {
    const shaped = shapeCommandOutput(body, resultId, {
      budget: { lines: capped.lines.length, chars: bodyChars(capped.lines) },
      headLines: config['cap.head_lines'],
      headChars: config['cap.head_chars'],
      tailLines: config['cap.tail_lines'],
    });
    // Where nothing is recognized (or nothing recognized fits), the spec's head and tail, exactly.
    if (shaped) return shaped;
  }
  return capped.lines;
}
