/** What every agent of the peers benchmark provides: how it is made ready, and one run of a scenario. */
import type { LoggedRequest } from '../../src/node/localServer/server';
import type { BenchScenario } from '../economy/benchScenario';
import type { ToolCategories } from './categories';
import type { NeedsByTurn } from './needs';

export interface AgentRunContext {
  readonly bench: BenchScenario;
  readonly needs: NeedsByTurn;
  /** The workspace, already holding the copied and patched sources. */
  readonly workspaceDir: string;
  /** A scratch folder for this run only (HOME, logs, journals). */
  readonly scratchDir: string;
  readonly model: string;
  readonly onNotice: (message: string) => void;
}

export interface AgentRun {
  readonly requests: readonly LoggedRequest[];
  /** Connections the agent tried to anything but the local server (refused by the harness's proxy). */
  readonly outsideConnections: number;
  /** Needs still not visible when their step was served. */
  readonly unmetNeeds: readonly string[];
  /**
   * Lossless compactions the agent recorded (Cairn's elisions, from its journal): each is one deliberate
   * cache break, which the server's log alone cannot tell from an accidental one. Absent: none.
   */
  readonly elisions?: number;
}

export interface BenchAgent {
  readonly name: string;
  readonly version: string;
  readonly categories: ToolCategories;
  /**
   * Its own sub-agent tool can be scripted (a `task` call translated to it, its sub-agents' requests told
   * apart by their task prompt): it plays a delegating scenario as written. Otherwise it plays the
   * scenario's inline twin (`x-bench-inline`): the same search done by the agent itself.
   */
  readonly playsSubagents?: boolean;
  /** Cairn itself in some configuration: never a peer, so never the "best peer" Cairn is measured against. */
  readonly isCairn?: boolean;
  /** Why its figures are not comparable with the others' (it is then left out of "best peer"). */
  readonly caveat?: string;
  /** Installs the agent on first use; a message when it cannot run here (the agent is then skipped). */
  prepare(): Promise<string | undefined>;
  run(context: AgentRunContext): Promise<AgentRun>;
}
