/**
 * Turns the session's AgentEvents into the chat's notifications. Stateful only in the turn number: turns
 * are counted from the journal at attach (`nextTurn`), then one per user message, so the numbers a live
 * session sends match the ones `olderTurns` pages rebuild from the journal after a reload.
 */
import type { AgentEvent } from '../core/agent/events';
import type { HostAction, HostNotification, SkillChangeView } from '../shared/protocol';
import { resultViewOf } from './resultView';
import { isSubagentAgentEvent, projectSubagentEvent } from './subagentProjection';

/** Which button an error carries, from the error kinds of `ModelError` and the loop. */
export function actionForError(kind: string): HostAction | undefined {
  switch (kind) {
    case 'auth':
      return 'setApiKey';
    case 'prompt_too_long':
      return 'compact';
    case 'rate_limited':
    case 'overloaded':
    case 'server':
    case 'network':
      return 'retry';
    case 'not_found':
    case 'bad_request':
      return 'openSettings';
    default:
      return undefined;
  }
}

/** The message and what to do about it, as one text (the loop gives them apart). */
export function errorText(message: string, advice: string | undefined): string {
  return advice && !message.includes(advice) ? `${message} ${advice}` : message;
}

export class EventProjection {
  private turn: number;

  /** `nextTurn`: the number the next user message gets (the count of turns already in the journal). */
  constructor(nextTurn: number) {
    this.turn = nextTurn - 1;
  }

  /** The turn events are attached to now (-1 before the first user message). */
  get currentTurn(): number {
    return this.turn;
  }

  /**
   * The notifications one event makes; events the chat does not show make none. `skills`: what a user message
   * turned on or off (read from the message as the conversation holds it, `skillTrace.ts`).
   */
  project(event: AgentEvent, skills: readonly SkillChangeView[] = []): HostNotification[] {
    if (event.type !== 'user_message') return projectItemEvent(event, Math.max(this.turn, 0));
    this.turn++;
    return [{ type: 'turnStarted', turn: this.turn, text: event.text, ...(skills.length > 0 ? { skills } : {}) }];
  }
}

/** The notifications of an event inside turn `turn` (a child's events too, wrapped: `subagentProjection.ts`). */
export function projectItemEvent(event: AgentEvent, turn: number): HostNotification[] {
  if (isSubagentAgentEvent(event)) return projectSubagentEvent(event, turn, projectItemEvent);
  switch (event.type) {
    case 'text_delta':
      return [{ type: 'textDelta', turn, text: event.text }];
    case 'thinking_delta':
      return [{ type: 'thinkingDelta', turn, text: event.text }];
    case 'assistant_message':
      return [{ type: 'assistantDone', turn, incomplete: event.incomplete }];
    case 'tool_started':
      return [{ type: 'toolStarted', turn, callId: event.callId, tool: event.tool, summary: event.summary }];
    case 'approval_requested':
      return [
        {
          type: 'approvalRequested',
          turn,
          callId: event.callId,
          tool: event.tool,
          summary: event.summary,
          ...(event.detail ? { detail: event.detail } : {}),
          ...(event.reason !== undefined ? { reason: event.reason } : {}),
          ...(event.bound !== undefined ? { bound: event.bound } : {}),
        },
      ];
    case 'tool_output':
      return [{ type: 'toolOutput', turn, callId: event.callId, text: event.text }];
    case 'tool_finished':
      return [{ type: 'toolFinished', turn, callId: event.callId, result: resultViewOf(event.result, event.durationMs) }];
    case 'notice':
      return [{ type: 'notice', turn, level: event.level, kind: event.kind, message: event.message }];
    case 'error': {
      const action = actionForError(event.kind);
      return [{ type: 'error', turn, kind: event.kind, message: errorText(event.message, event.advice), ...(action ? { action } : {}) }];
    }
    case 'compacted':
      return [
        {
          type: 'compacted',
          turn,
          mark: {
            generation: event.generation,
            tokensBefore: event.tokensBefore,
            tokensAfter: event.tokensAfter,
            hasDetails: true,
            // The user did not ask for it: what it took out of the model's view is shown without a click.
            ...(event.reason === 'manual' ? {} : { showLeft: true as const }),
          },
        },
      ];
    default:
      // request_started, usage, request_finished and done are the controller's (meter, report, busy).
      return [];
  }
}
