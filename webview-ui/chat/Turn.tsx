import { Component } from 'preact';
import type { ApprovalDecision, HostAction, TranscriptItem, TurnView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { LinkedText } from '../common/LinkedText';
import { Markdown } from '../common/Markdown';
import { RecallScope } from '../common/RecallScope';
import { CompactionMark } from './CompactionMark';
import { ToolCall } from './ToolCall';

export const ACTION_LABEL: Record<HostAction, string> = {
  setApiKey: 'Set API Key',
  retry: 'Retry',
  newSession: 'New Session',
  compact: 'Compact Context',
  showReport: 'Show Context Report',
  openSettings: 'Open Settings',
};

const NOTICE_ICON: Record<string, string> = { info: 'ℹ', warning: '⚠', critical: '⛔' };

type Answer = (callId: string, decision: ApprovalDecision, reason?: string) => void;

function ErrorItem({ message, action }: { message: string; action?: HostAction }) {
  const bridge = useBridge();
  return (
    <div class="error-item" role="alert">
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

function Item({ item, onAnswer }: { item: TranscriptItem; onAnswer: Answer }) {
  switch (item.type) {
    case 'user':
      return (
        <RecallScope class="message user">
          <div class="user-text">
            <LinkedText text={item.text} />
          </div>
        </RecallScope>
      );
    case 'assistant':
      return (
        <RecallScope class={`message assistant ${item.streaming ? 'streaming' : ''}`}>
          <Markdown source={item.text} streaming={item.streaming === true} />
          {item.incomplete && <p class="quiet">The response was cut off here.</p>}
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
      return <ToolCall item={item} onAnswer={onAnswer} />;
    case 'notice':
      return (
        <RecallScope class={`notice level-${item.level} notice-${item.kind}`}>
          <span aria-hidden="true" class="notice-icon">
            {item.kind === 'retrying' ? '↻' : (NOTICE_ICON[item.level] ?? 'ℹ')}
          </span>
          <span>
            <LinkedText text={item.message} />
          </span>
        </RecallScope>
      );
    case 'error':
      return <ErrorItem message={item.message} action={item.action} />;
    case 'compaction':
      return <CompactionMark {...item} />;
  }
}

/** One turn. Re-renders only when its own turn object changes (the transcript shares untouched turns). */
export class Turn extends Component<{ turn: TurnView; onAnswer: Answer }> {
  override shouldComponentUpdate(next: { turn: TurnView }): boolean {
    return next.turn !== this.props.turn;
  }
  override render() {
    const { turn, onAnswer } = this.props;
    return (
      <div class="turn" data-turn={turn.index}>
        {turn.items.map((item, i) => (
          <Item key={item.type === 'tool' ? item.callId : i} item={item} onAnswer={onAnswer} />
        ))}
      </div>
    );
  }
}
