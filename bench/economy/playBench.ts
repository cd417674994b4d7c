/**
 * One bench scenario played once through the headless runner (the real loop, tools, composer, journal)
 * against the local server, in a folder the caller owns: what the economy bench, the candidates and the
 * smoke tests all measure from.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../src/core/compaction/settings';
import type { HygieneConfig } from '../../src/core/config/hygiene';
import type { SessionPorts } from '../../src/core/session/node/sessionAssembly';
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import { runHeadless } from '../../src/node/headless/runner';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { withAgentEnvironment } from '../peers/agentEnvironment';
import { prepareWorkspace, workspaceWritten, type BenchScenario } from './benchScenario';

export interface PlayedBench {
  readonly requests: readonly LoggedRequest[];
  /** Script mismatches the local server or runner reported (a scenario that no longer fits the code). */
  readonly notices: string[];
  readonly workspaceDir: string;
  /** Where the run's session journal is (its elisions are counted from it). */
  readonly sessionsDir: string;
  /** How each of the script's runs ended. */
  readonly doneReasons: readonly string[];
}

/** The compaction settings a scenario runs with: the defaults, with its own threshold if it names one. */
export function benchCompaction(bench: BenchScenario): CompactionSettings {
  return bench.compactionShare !== undefined
    ? { ...DEFAULT_COMPACTION_SETTINGS, threshold: { kind: 'share', value: bench.compactionShare } }
    : DEFAULT_COMPACTION_SETTINGS;
}

export async function playBenchScenario(
  bench: BenchScenario,
  root: string,
  options: {
    readonly strategy?: Pick<SessionPorts, 'project' | 'wrapTools'>;
    readonly compaction?: CompactionSettings;
    readonly hygiene?: HygieneConfig;
    /** Answers served before a scripted step (the needs gate's retrievals). */
    readonly serverHooks?: AgentHooks;
    /** Where the session's journal goes, when the caller needs it while the run is going (the gate does). */
    readonly outDir?: string;
  } = {},
): Promise<PlayedBench> {
  const workspaceDir = join(root, 'workspace');
  await prepareWorkspace(bench, workspaceDir);
  const notices: string[] = [];
  const homeDir = join(root, 'home');
  await mkdir(homeDir, { recursive: true });
  // The commands get what every agent's get in the peers bench (agentEnvironment.ts), so a day prints the same here.
  const result = await withAgentEnvironment(homeDir, () =>
    runHeadless({
      workspaceDir,
      scenario: workspaceWritten(bench),
      outDir: options.outDir ?? join(root, 'out'),
      homeDir,
      idSeed: 0xca1,
      ...(options.strategy ? { strategy: options.strategy } : {}),
      compaction: options.compaction ?? benchCompaction(bench),
      ...(options.hygiene ? { hygiene: options.hygiene } : {}),
      ...(options.serverHooks ? { serverHooks: options.serverHooks } : {}),
      onNotice: (message) => notices.push(message),
    }),
  );
  notices.push(...(result.server?.notices ?? []));
  return {
    requests: result.server?.requests ?? [],
    notices,
    workspaceDir,
    sessionsDir: join(options.outDir ?? join(root, 'out'), 'sessions'),
    doneReasons: result.doneReasons,
  };
}
