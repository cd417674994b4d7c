import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sanitizeTerminalText } from '../../core/text/terminalText';
import { loadScenario } from '../scenario/scenario';
import { totalsLine } from './childRuns';
import { compactionSettingsOf, hygieneOf, parseHeadlessArgs, UsageError } from './args';
import { renderReport } from './report';
import { runHeadless } from './runner';
import { commandIsolation } from '../workspace/commandIsolation';
import { transcriptLines } from './transcript';

async function main(): Promise<number> {
  const args = parseHeadlessArgs(process.argv.slice(2));
  const scenario = args.scenario ? await loadScenario(args.scenario) : undefined;
  const transcript: string[] = [];
  // Said once, as the editor says it: where commands cannot be isolated, a command can reach this process.
  const isolation = await commandIsolation();
  if (isolation.kind === 'none') {
    process.stderr.write(`${sanitizeTerminalText(`Commands are not isolated from this process: ${isolation.reason}.`)}\n`);
  }
  const result = await runHeadless({
    workspaceDir: args.workspace,
    ...(scenario ? { scenario } : {}),
    ...(args.prompt ? { prompt: args.prompt } : {}),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.out ? { outDir: args.out } : {}),
    ...(args.model ? { model: args.model } : {}),
    compaction: compactionSettingsOf(args),
    ...(args.spendingCaps ? { spending: { caps: args.spendingCaps, ...(args.pastCap ? { pastCap: args.pastCap } : {}) } } : {}),
    ...(args.sandbox ? { sandbox: args.sandbox } : {}),
    ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}),
    ...(args.hooks ? { hooks: {} } : {}),
    hygiene: hygieneOf(args),
    onEvent: (event) => {
      const lines = transcriptLines(event);
      transcript.push(...lines);
      if (!args.quiet) for (const line of lines) process.stdout.write(`${line}\n`);
    },
    onNotice: (message) => process.stderr.write(`[scenario] ${sanitizeTerminalText(message)}\n`),
  });
  await writeFile(join(result.outDir, 'transcript.md'), `${transcript.join('\n')}\n`);
  if (args.report) process.stdout.write(`\n${sanitizeTerminalText(renderReport(result.snapshots, result.children))}\n`);
  // A run that failed as the script meant it to, and was then retried, is not a failure of the run as a whole.
  const failed = result.doneReasons.filter((r) => r === 'error').length - result.retriedErrors;
  const requests = result.snapshots.length + result.children.reduce((n, child) => n + child.snapshots.length, 0);
  process.stdout.write(
    `\n${requests} requests, ${result.doneReasons.length} runs (${result.doneReasons.join(', ') || 'none'}${result.retriedErrors ? `; ${result.retriedErrors} retried` : ''}); journal ${result.sessionDir}; snapshots ${join(result.outDir, 'snapshots.json')}\n`,
  );
  process.stdout.write(`${totalsLine(result.snapshots, result.children)}\n`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${sanitizeTerminalText(error.message)}\n`);
      process.exit(2);
    }
    process.stderr.write(`${sanitizeTerminalText(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(1);
  },
);
