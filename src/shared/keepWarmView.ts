/**
 * A keep-warm request's decision as the context report gets it (issue 31 §2, `cairn.cache.keepWarm`): the plan's
 * figures, so the report can set what the pings saved beside what the plan predicted
 * (`webview-ui/report/keepWarmSaving.ts`). Base-input-token units, as `core/compose/keepWarmModel.ts`.
 */
export interface KeepWarmFiguresView {
  /** Requests the plan allowed after the turn. */
  readonly planned: number;
  /** This request's number in the plan, from 1. */
  readonly ping: number;
  /** The plan's expected saving over the pause, against letting the cache expire. */
  readonly predictedSaving: number;
  /** Set for a ping during a long tool run; absent: while the user was away after a turn. */
  readonly during?: 'tool_run';
}
