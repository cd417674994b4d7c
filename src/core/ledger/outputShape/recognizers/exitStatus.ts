/**
 * The command's exit status, as the bash tool ends its output when the command did not succeed:
 * `[exit code 1]`, `[timed out after 120000 ms]`, `[ended by a signal]`, `[cancelled]`, `[stopped: the window closed]`
 * (core/tools/bashTool.ts). Always the last line; a successful run has none.
 */
import { finding, type Finding, type OutputRecognizer } from './finding';

const STATUS = /^\[(?:exit code -?\d+|timed out after \d+ ms|ended by a signal|cancelled|stopped: the window closed)\]$/;

export const exitStatus: OutputRecognizer = {
  name: 'exit status',
  find(lines: readonly string[]): readonly Finding[] {
    const last = lines.length - 1;
    return last >= 0 && STATUS.test(lines[last]!) ? [finding('status', last)] : [];
  },
};
