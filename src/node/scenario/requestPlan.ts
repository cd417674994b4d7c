/**
 * What a cursor over a scenario's turns gives one request: its fault, its answer, or both. The parent's
 * cursor (`ScenarioPlayer`) and each child's (`ChildScript`) plan requests alike, and the local server
 * answers from the plan; its own file so neither cursor imports the other's module for it.
 */
import type { AssistantTurn, Fault } from './types';

export type ScriptedRequestKind = 'main' | 'compaction';

export type PlannedAnswer =
  | { readonly type: 'assistant'; readonly turn: AssistantTurn }
  | { readonly type: 'summary'; readonly text: string; readonly turnIndex: number }
  /** No summary turn here: the server builds one from the request so automatic compactions work. */
  | { readonly type: 'generated_summary' }
  /** The script has nothing to say here: an `end_turn` with this text. */
  | { readonly type: 'no_turn'; readonly text: string };

export interface RequestPlan {
  /** The fault this request gets, from a `fault` turn. */
  readonly fault?: Fault;
  readonly faultTurnIndex?: number;
  /** Absent when the fault replaces the answer (an HTTP error status, prompt too long). */
  readonly answer?: PlannedAnswer;
}
