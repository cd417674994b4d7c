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
  /** Rewrites a turn's tool calls into the agent's own tools, just before it is sent. */
  readonly translate?: (turn: AssistantTurn, request: WireRequest) => AssistantTurn;
}
