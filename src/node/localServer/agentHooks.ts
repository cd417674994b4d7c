/**
 * Hooks that let one scripted session be played to agents other than Cairn (the peers benchmark):
 * each agent has its own tool vocabulary, its own side requests, and its own way to see an output
 * again. The server stays the one meter; the hooks only decide what it answers.
 */
import type { AssistantTurn } from '../scenario/types';
import type { WireRequest } from './wire';

export interface AgentHooks {
  /**
   * A request that is not a step of the conversation (title generation, a quota probe): answered with
   * `sideAnswer` and logged with `role: "side"`, the script untouched.
   */
  readonly isSide?: (request: WireRequest) => boolean;
  readonly sideAnswer?: (request: WireRequest) => string;
  /**
   * A request that summarises the conversation to go on in a smaller context (the agent's own
   * compaction): answered with a summary built from the request, logged with `role: "compaction"`.
   */
  readonly isCompaction?: (request: WireRequest) => boolean;
  /**
   * Called before the next scripted assistant turn is served: a turn to serve first instead (a
   * retrieval of something that turn needs), logged with `role: "retrieval"`; the scripted turn stays
   * next. Undefined serves the scripted turn.
   */
  readonly before?: (request: WireRequest, upcoming: AssistantTurn) => Promise<AssistantTurn | undefined> | AssistantTurn | undefined;
  /**
   * A request the agent sent for one of its own sub-agents (it sets no `x-cairn-agent`): the script's
   * child id whose turns answer it (`explore-1`), or undefined for the session's own agent. Such a
   * request is never taken for a side request.
   */
  readonly agentOf?: (request: WireRequest) => string | undefined;
  /** Rewrites a turn's tool calls into the agent's own tools, just before it is sent. */
  readonly translate?: (turn: AssistantTurn, request: WireRequest) => AssistantTurn;
}
