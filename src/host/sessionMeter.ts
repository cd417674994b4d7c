/**
 * The open session's figures as the views show them: the meter's running totals (`usageMeter.ts`), what each
 * event adds to them and to the report (the session's own agent's, `sessionFigures.ts`; its children's,
 * `subagentAccounting.ts`), and the meter sent to the views and the status bar whenever it changes.
 */
import type { AgentEvent } from '../core/agent/events';
import { errorMessage } from '../core/errorMessage';
import type { HostNotification, WebviewKind } from '../shared/protocol';
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { OpenViews } from './openViews';
import type { SessionControllerDeps } from './sessionControllerDeps';
import { SessionFigures } from './sessionFigures';
import { SubagentAccounting } from './subagentAccounting';
import { UsageMeter } from './usageMeter';

export interface SessionMeterDeps {
  readonly host: Pick<SessionControllerDeps, 'currentModel' | 'windowTokens' | 'onMeter' | 'log'>;
  /** The open session, if any (none: nothing to meter). */
  readonly current: () => AssembledSession | undefined;
  /** The chat turn the session's agent is in. */
  readonly turn: () => number;
  readonly views: Pick<OpenViews, 'broadcast'>;
  /** The summary of the active generation, from the journal (after an undo restored an earlier one). */
  readonly restoredSummary: () => Promise<string | null>;
}

export class SessionMeter {
  readonly usage = new UsageMeter();
  /** The session's agent's tokens saved, requests and summaries in the report and the meter. */
  private readonly figures: SessionFigures;
  /** The children's requests in the report, the meter and their turn (issue 19). */
  private readonly subagents: SubagentAccounting;

  constructor(private readonly deps: SessionMeterDeps) {
    const accounting = {
      usage: this.usage,
      turn: deps.turn,
      broadcast: (message: HostNotification, only?: WebviewKind) => deps.views.broadcast(message, only),
      refreshMeter: () => void this.refresh(),
    };
    this.figures = new SessionFigures({ ...accounting, restoredSummary: deps.restoredSummary });
    this.subagents = new SubagentAccounting(accounting);
  }

  /** What an event of the open session adds: the session's own agent's figures, and its children's. */
  observe(event: AgentEvent): void {
    this.figures.observe(event);
    if (event.type === 'subagent_event') this.subagents.observe(event);
  }

  /** Builds the meter again and sends it to the views and the status bar. */
  async refresh(): Promise<void> {
    const assembled = this.deps.current();
    if (!assembled) return;
    const { host } = this.deps;
    try {
      // The window the session was metered with (its last request's), so a reload or a later lookup of the
      // model's facts does not change it; the model's facts before the first request, or after a model change.
      const window = this.usage.meteredWindow(host.currentModel?.()) ?? (await host.windowTokens());
      const meter = this.usage.view(assembled, window);
      this.deps.views.broadcast({ type: 'usage', meter });
      host.onMeter?.(meter);
    } catch (error) {
      host.log.warn(`The usage meter could not be updated: ${errorMessage(error)}`);
    }
  }
}
