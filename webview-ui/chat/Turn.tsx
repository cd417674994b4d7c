import { Component } from 'preact';
import type { ApprovalDecision, HostAction, TranscriptItem, TurnView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { LinkedText } from '../common/LinkedText';
import { Markdown } from '../common/Markdown';
import { RecallScope } from '../common/RecallScope';
import { CompactionMark } from './CompactionMark';
import { ToolCall } from './ToolCall';
import { TurnRequestsLink } from './TurnRequestsLink';
import { TurnChanges } from './TurnChanges';
import { UserMessage } from './UserMessage';
import { TurnUsage } from './TurnUsage';
import { SubagentBlock } from './SubagentBlock';
import { FollowingContext } from './followEnd';

export const ACTION_LABEL: Record<HostAction, string> = {
  setApiKey: 'Set API Key',
  retry: 'Retry',
  newSession: 'New Session',
  compact: 'Compact Context',
  showReport: 'Show Context Report',
  openSettings: 'Open Settings',
  resend: 'Send Again',
  continue: 'Continue',
  regenerate: 'Regenerate',
};

const NOTICE_ICON: Record<string, string> = { info: 'ℹ', warning: '⚠', critical: '⛔' };

/** `agent`: the child agent whose call it is (issue 19); absent for the session's own. */
type Answer = (callId: string, decision: ApprovalDecision, reason?: string, agent?: string) => void;

function ErrorItem({ message, action, unsent }: { message: string; action?: HostAction; unsent?: string }) {
  const bridge = useBridge();
  return (
    <div class="error-item" role="alert">
      {unsent !== undefined && (
        <div class="unsent-message" aria-label="Your message, not sent">
          <LinkedText text={unsent} />
        </div>
      )}
      <span class="error-icon" aria-hidden="true">
        ✕
      </span>
      <span class="error-message">
        <LinkedText text={message} />
      </span>
      {action && (
        <button type="button" class="button primary" onClick={() => bridge.notify({ type: 'action', action })}>
          {ACTION_LABEL[action]}
        </button>
      )}
    </div>
  );
}

function NoticeAction({ action }: { action: HostAction }) {
  const bridge = useBridge();
  return (
    <button type="button" class="button secondary notice-action" onClick={() => bridge.notify({ type: 'action', action })}>
      {ACTION_LABEL[action]}
    </button>
  );
}

/** One item of a turn, or of a child agent's block (`agent`: that child's id). */
function Item({ item, onAnswer, turn, agent }: { item: TranscriptItem; onAnswer: Answer; turn: number; agent?: string }) {
  switch (item.type) {
    case 'user':
      return <UserMessage text={item.text} turn={turn} skills={item.skills} images={item.images} />;
    case 'changes':
      return <TurnChanges changes={item} />;
    case 'assistant':
      return (
        <RecallScope class={`message assistant ${item.streaming ? 'streaming' : ''}`} label="Cairn's answer">
          <Markdown source={item.text} streaming={item.streaming === true} />
          {item.incomplete && <p class="quiet">{item.stopped ? 'You stopped the response here.' : 'The response was cut off here.'}</p>}
        </RecallScope>
      );
    case 'thinking':
      return (
        <details class="thinking">
          <summary>{item.streaming ? 'Thinking…' : 'Thought'}</summary>
          <pre class="thinking-text">{item.text}</pre>
        </details>
      );
    case 'tool':
      return (
        <ToolCall item={item} onAnswer={onAnswer} {...(agent !== undefined ? { agent } : {})}>
          {item.subagent && <SubagentBlock agent={item.subagent} onAnswer={onAnswer} turn={turn} Item={Item} />}
        </ToolCall>
      );
    case 'notice':
      return (
        <RecallScope class={`notice level-${item.level} notice-${item.kind}`}>
          <span aria-hidden="true" class="notice-icon">
            {item.kind === 'retrying' ? '↻' : (NOTICE_ICON[item.level] ?? 'ℹ')}
          </span>
          <span>
            <LinkedText text={item.message} />
          </span>
          {item.action && <NoticeAction action={item.action} />}
        </RecallScope>
      );
    case 'error':
      return <ErrorItem message={item.message} action={item.action} unsent={item.unsent} />;
    case 'compaction':
      return <CompactionMark {...item} />;
  }
}

/** A turn with more items than this shows its head (your message) and the newest ones. */
export const LONG_TURN_ITEMS = 80;
/** How many of a long turn's newest items are shown while the earlier ones are folded. */
export const LONG_TURN_TAIL = 50;

/**
 * How many items open a turn and stay shown when it folds: up to and including your message. A notice can
 * come before it (the key saved from the welcome goes to the turn the first message starts), and the fold
 * must never hide the message the turn answers.
 */
export function turnHeadLength(items: readonly TranscriptItem[]): number {
  const user = items.findIndex((item) => item.type === 'user');
  return user === -1 ? Math.min(items.length, 1) : user + 1;
}

/**
 * How many of a turn's last items are compaction marks that stand between it and the next turn: a compaction
 * asked for between turns ("Compact…") is sent, and journalled, after the turn that was last, but belongs to
 * neither. While the turn runs none are: an automatic compaction is part of the run it was made for.
 */
export function marksAfterTurn(items: readonly TranscriptItem[], running: boolean): number {
  if (running) return 0;
  let count = 0;
  while (count < items.length && items[items.length - 1 - count]!.type === 'compaction') count++;
  return count;
}

/**
 * One turn. Re-renders only when its own turn object changes (the transcript shares untouched turns) or
 * when its fold is opened. An agent can make hundreds of tool calls in one turn; windowing is per turn,
 * so a long one folds its middle behind a button instead of making hundreds of DOM rows at once. The fold
 * grows with the turn only while the view follows its end: a reader who scrolled up to read a step keeps it.
 */
interface TurnProps {
  readonly turn: TurnView;
  readonly onAnswer: Answer;
  /** The turn the agent works on now (the last one, while busy). */
  readonly running: boolean;
}

export class Turn extends Component<TurnProps, { unfolded: boolean }> {
  static override contextType = FollowingContext;
  declare context: () => boolean;
  override state = { unfolded: false };
  /** The first of the newest items shown under the fold, as last rendered. */
  private tailFrom: number | undefined;
  override shouldComponentUpdate(next: TurnProps, nextState: { unfolded: boolean }): boolean {
    return next.turn !== this.props.turn || next.running !== this.props.running || nextState.unfolded !== this.state.unfolded;
  }
  /** How many items the fold hides now (0: none). */
  private foldedCount(items: readonly TranscriptItem[], head: number): number {
    if (this.state.unfolded || items.length <= LONG_TURN_ITEMS) {
      this.tailFrom = undefined;
      return 0;
    }
    const newest = items.length - LONG_TURN_TAIL;
    const from = this.tailFrom === undefined || this.context() ? newest : Math.min(this.tailFrom, newest);
    this.tailFrom = Math.max(from, head);
    return this.tailFrom - head;
  }
  override render() {
    const { turn, onAnswer, running } = this.props;
    const after = marksAfterTurn(turn.items, running);
    const items = turn.items.slice(0, turn.items.length - after);
    const head = turnHeadLength(items);
    const folded = this.foldedCount(items, head);
    const item = (entry: TranscriptItem, i: number) => (
      <Item key={entry.type === 'tool' ? entry.callId : i} item={entry} onAnswer={onAnswer} turn={turn.index} />
    );
    return (
      <>
        <div class="turn" data-turn={turn.index} tabIndex={-1}>
          {folded === 0 ? (
            items.map(item)
          ) : (
            <>
              {items.slice(0, head).map(item)}
              <button type="button" class="text-button fold-button" onClick={() => this.setState({ unfolded: true })}>
                Show {folded} earlier steps of this turn
              </button>
              {items.slice(head + folded).map((entry, i) => item(entry, head + folded + i))}
            </>
          )}
          {turn.usage && <TurnUsage usage={turn.usage} />}
          <TurnRequestsLink turn={turn} />
        </div>
        {turn.items.slice(items.length).map((mark, i) => item(mark, items.length + i))}
      </>
    );
  }
}
