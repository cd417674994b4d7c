import type { AgentEvent } from '../core/agent/events';
import type { HostAction, HostToWebview, SkillChangeView, TurnChangesView, UserImageView } from '../shared/protocol';

type ErrorNotification = Extract<HostToWebview, { type: 'error' }>;
import { EventProjection } from './eventProjection';
import type { OpenViews } from './openViews';
import { OutputThrottle } from './outputThrottle';
import { ENV_KEY_WARNING } from './sessionNotices';
import { childFinishedCall, childOutput, outputKey, wrapChildOutput } from './subagentProjection';

/**
 * How the session's events reach the chat: projected to turn notifications (numbered after the journal's
 * turns), a running command's output throttled, and the host's own notices and errors on the current turn.
 */
export class ChatRelay {
  private projection = new EventProjection(0);
  /** A running command's output, throttled on its way to the chat. */
  private readonly liveOutput = new OutputThrottle((callId, text) => {
    for (const notification of this.projection.project({ type: 'tool_output', callId, text })) this.views.broadcast(notification, 'chat');
  });
  /** The same for the children's commands, keyed by the child's id and the call's (call ids may repeat across agents). */
  private readonly childOutput = new OutputThrottle((key, text) => {
    const path = JSON.parse(key) as string[];
    const callId = path.pop()!;
    for (const notification of this.projection.project(wrapChildOutput(path, callId, text))) this.views.broadcast(notification, 'chat');
  });
  /** Warnings shown once per window (by kind): 'due' once found, shown with the next turn, then never again. */
  private readonly warnings = new Map<string, { state: 'due' | 'shown'; readonly message: string }>();

  constructor(private readonly views: OpenViews) {}

  /** A session was opened: its live turns continue the journal's count. */
  startAfter(journalTurns: number): void {
    this.projection = new EventProjection(journalTurns);
  }

  /** The key comes from the environment: warn once, with the next turn. */
  keyFromEnvironment(): void {
    this.warnOnce('api_key_from_environment', ENV_KEY_WARNING);
  }

  /** A warning shown with the next turn, once per window whatever is asked again. */
  warnOnce(kind: string, message: string): void {
    if (!this.warnings.has(kind)) this.warnings.set(kind, { state: 'due', message });
  }

  /** Whether a warning of this kind was given (or is due). */
  warned(kind: string): boolean {
    return this.warnings.has(kind);
  }

  /** The chat turn events go to now (0 before the first). */
  get currentTurn(): number {
    return this.turn();
  }

  get warnedAboutKey(): boolean {
    return this.warned('api_key_from_environment');
  }

  /** `skills`: what a user message turned on or off (`skillTrace.ts`); only a `user_message` has any. */
  relay(event: AgentEvent, skills: readonly SkillChangeView[] = []): void {
    if (event.type === 'tool_output') {
      this.liveOutput.add(event.callId, event.text);
      return;
    }
    const output = childOutput(event);
    if (output) {
      this.childOutput.add(outputKey(output.path, output.callId), output.text);
      return;
    }
    // Pending output goes first, so the chat sees everything in order; a finished call's result replaces it.
    if (event.type === 'tool_finished') this.liveOutput.drop(event.callId);
    const childCall = childFinishedCall(event);
    if (childCall !== undefined) this.childOutput.drop(childCall);
    this.liveOutput.flush();
    this.childOutput.flush();
    for (const notification of this.projection.project(event, skills)) this.views.broadcast(notification, 'chat');
    if (event.type !== 'user_message') return;
    for (const [kind, warning] of this.warnings) {
      if (warning.state !== 'due') continue;
      warning.state = 'shown';
      this.views.broadcast({ type: 'notice', turn: this.turn(), level: 'warning', kind, message: warning.message }, 'chat');
    }
  }

  /** A notice in the chat that is not part of the session's journal (e.g. “API key saved”). */
  notice(kind: string, message: string, action?: HostAction): void {
    this.views.broadcast({ type: 'notice', turn: this.turn(), level: 'info', kind, message, ...(action ? { action } : {}) }, 'chat');
  }

  /** The images a turn's user message carries, once their thumbnails are made. */
  userImages(turn: number, images: readonly UserImageView[]): void {
    this.views.broadcast({ type: 'userImages', turn, images }, 'chat');
  }

  /** The files the current turn changed, at its end. */
  turnChanges(changes: TurnChangesView): void {
    this.views.broadcast({ type: 'turnChanges', turn: this.turn(), changes }, 'chat');
  }

  /** `unsent`: the user's message that did not go out, shown with the error so it is not lost. */
  error(kind: string, message: string, action?: HostAction, unsent?: string): void {
    this.broadcastError(this.errorEvent(kind, message, action, unsent));
  }

  /** An error card on the current turn, to send now or to add to a view's init. */
  errorEvent(kind: string, message: string, action?: HostAction, unsent?: string): ErrorNotification {
    return { type: 'error', turn: this.turn(), kind, message, ...(action ? { action } : {}), ...(unsent !== undefined ? { unsent } : {}) };
  }

  broadcastError(event: ErrorNotification): void {
    this.views.broadcast(event, 'chat');
  }

  dispose(): void {
    this.liveOutput.dispose();
    this.childOutput.dispose();
  }

  private turn(): number {
    return Math.max(this.projection.currentTurn, 0);
  }
}
