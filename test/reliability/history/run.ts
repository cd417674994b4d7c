/**
 * Runs the model-based history suite: `runs` random sequences of up to `maxSteps` moves from `seed`, each on a
 * fresh session and local server, every check after every step. Used by `historyModel.test.ts` (a fixed seed in
 * `npm test`) and by `npm run bench -- history --runs N --seed S` (the long run, in chunks so that one failure
 * is shrunk, reported, and the run goes on with the next chunk).
 */
import fc from 'fast-check';
import { historyCommands } from './commands';
import { count, emptyStats, HistoryModel, type ModelStats } from './model';
import { HistoryRig } from './rig';

export interface HistoryRunOptions {
  readonly runs: number;
  readonly seed: number;
  readonly maxSteps?: number;
  /** Sequences per fast-check run (the long run's chunk); default all in one. */
  readonly chunk?: number;
  /** Called after each sequence with the number done so far. */
  readonly progress?: (done: number, stats: ModelStats) => void;
  /** A failure's `counterexamplePath`: replays that one sequence from `seed` (with `runs` 1). */
  readonly path?: string;
  /** Shrink failures (default true; a long run may skip it to report sooner). */
  readonly shrink?: boolean;
  /** Called with each failure as soon as its chunk is over (a long run prints it then). */
  readonly onFailure?: (failure: HistoryFailure) => void;
}

export interface HistoryFailure {
  readonly seed: number;
  readonly path?: string;
  /** The shrunk sequence, one move a line, and the error. */
  readonly report: string;
}

export interface HistoryRunResult {
  readonly sequences: number;
  readonly stats: ModelStats;
  readonly failures: readonly HistoryFailure[];
  readonly ms: number;
}

export const DEFAULT_MAX_STEPS = 40;

export async function runHistory(options: HistoryRunOptions): Promise<HistoryRunResult> {
  const stats = emptyStats();
  const failures: HistoryFailure[] = [];
  const chunk = options.chunk ?? options.runs;
  const started = Date.now();
  let sequences = 0;
  for (let offset = 0; offset < options.runs; offset += chunk) {
    const runs = Math.min(chunk, options.runs - offset);
    const seed = options.seed + offset;
    // From the first failure on, the runs are the shrinker's: they count in no figure.
    let failed = false;
    const done = (): void => {
      sequences++;
      options.progress?.(sequences, stats);
    };
    const property = fc.asyncProperty(
      fc.commands(historyCommands(), { maxCommands: options.maxSteps ?? DEFAULT_MAX_STEPS, size: 'max' }),
      async (commands) => {
        const setup = performance.now();
        const rig = await HistoryRig.start();
        const model = new HistoryModel(failed ? emptyStats() : stats);
        model.stats.moveMs.set('(session start)', (model.stats.moveMs.get('(session start)') ?? 0) + performance.now() - setup);
        count(model.stats.moves, '(session start)');
        try {
          await fc.asyncModelRun(() => ({ model, real: rig }), commands);
        } catch (error) {
          if (!failed) done();
          failed = true;
          throw error;
        } finally {
          await rig.close();
        }
        if (!failed) done();
      },
    );
    const result = await fc.check(property, {
      numRuns: runs,
      seed,
      endOnFailure: options.shrink === false,
      ...(options.path !== undefined ? { path: options.path } : {}),
    });
    if (result.failed) {
      const error = result.errorInstance;
      const failure: HistoryFailure = {
        seed,
        ...(result.counterexamplePath ? { path: result.counterexamplePath } : {}),
        report: `${String(result.counterexample?.[0] ?? '')}\nreplay: CAIRN_HISTORY_SEED=${seed} CAIRN_HISTORY_PATH=${result.counterexamplePath ?? ''}\n${error instanceof Error ? error.message : String(error)}`,
      };
      failures.push(failure);
      options.onFailure?.(failure);
    }
  }
  return { sequences, stats, failures, ms: Date.now() - started };
}

/** The long run's report: what ran, how fast, what it reached, and the summary line last. */
export function historyMarkdown(result: HistoryRunResult, machine: string): string {
  const { stats } = result;
  const seconds = result.ms / 1000;
  const moves = [...stats.moves.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([move, n]) => `${move} ${n}`);
  const refusals = [...stats.refusals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([move, n]) => `${move} ${n}`);
  const lines = [
    `# Model-based history run — ${new Date().toISOString()}`,
    '',
    machine,
    '',
    '| | |',
    '|---|---|',
    `| Sequences | ${result.sequences} (${(result.sequences / seconds).toFixed(2)} a second, ${seconds.toFixed(0)} s) |`,
    `| Steps | ${stats.steps} |`,
    `| Moves | ${moves.join(', ')} |`,
    `| Time per move (ms, mean) | ${[...stats.moveMs.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([move, ms]) => `${move} ${Math.round(ms / (stats.moves.get(move) ?? 1))}`)
      .join(', ')} |`,
    `| Refused as predicted | ${refusals.join(', ') || 'none'} |`,
    `| Automatic | ${stats.autoCompactions} compactions, ${stats.elisions} elisions |`,
    `| Manual | ${stats.manualCompactions} compactions, ${stats.undos} undos, ${stats.edits} edits and resends, ${stats.fileRestores} restores (${stats.conversationRestores} with the conversation) |`,
    `| Faults, crashes, children | ${stats.faults} failed runs, ${stats.crashes} crashes inside a run, ${stats.reopens} reopens, ${stats.children} sub-agents |`,
    `| Requests answered | ${stats.requests} |`,
    '',
    `history: ${result.sequences} sequences, ${stats.steps} steps, ${result.failures.length} violations`,
  ];
  return lines.join('\n');
}
