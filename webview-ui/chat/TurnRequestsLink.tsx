import type { TurnView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';

/**
 * The way from a turn of the chat to its requests in the context report (the report's "Show turn N in
 * the chat" comes back). Only on a turn that got an answer or ran a tool: one that did not sent nothing.
 */
export function TurnRequestsLink({ turn }: { turn: TurnView }) {
  const bridge = useBridge();
  if (!turn.items.some((item) => item.type === 'assistant' || item.type === 'tool')) return null;
  return (
    <div class="turn-requests">
      <button
        type="button"
        class="text-button"
        title="Open the context report at this turn's requests: what was sent, from which source, at what cost"
        onClick={() => bridge.notify({ type: 'showTurnRequests', turn: turn.index })}
      >
        Requests of this turn
      </button>
    </div>
  );
}
