import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ApprovalDecision, TurnView } from '../../src/shared/protocol';
import type { ChatStore } from './chatStore';
import { Turn } from './Turn';

/** Turns rendered in full when a session opens; older ones start as placeholders until scrolled near. */
const INITIALLY_RENDERED = 12;
/** A turn this far outside the visible area is replaced by a placeholder of its measured height. */
const RENDER_MARGIN = '1200px 0px';
const ESTIMATED_TURN_HEIGHT = 160;

/** `agent`: the child agent whose call it is (issue 19); absent for the session's own. */
type Answer = (callId: string, decision: ApprovalDecision, reason?: string, agent?: string) => void;

/**
 * Keeps a long transcript fast: only turns on or near the screen are real DOM; the rest are empty
 * boxes of the height they had, so the scroll bar and position stay right.
 */
function TurnSlot({
  turn,
  root,
  initiallyVisible,
  running,
  onAnswer,
}: {
  turn: TurnView;
  root: RefObject<HTMLElement | null>;
  initiallyVisible: boolean;
  running: boolean;
  onAnswer: Answer;
}) {
  const element = useRef<HTMLDivElement>(null);
  const visible = useSignal(initiallyVisible);
  const height = useSignal(ESTIMATED_TURN_HEIGHT);
  useEffect(() => {
    const target = element.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) visible.value = true;
          else {
            if (visible.value) height.value = Math.max(entry.boundingClientRect.height, 1);
            visible.value = false;
          }
        }
      },
      { root: root.current, rootMargin: RENDER_MARGIN },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={element} class="turn-slot" data-turn-slot={turn.index}>
      {visible.value ? (
        <Turn turn={turn} onAnswer={onAnswer} running={running} />
      ) : (
        <div class="turn-placeholder" style={{ height: `${height.value}px` }} />
      )}
    </div>
  );
}

export function TurnList({ store, scrollRoot }: { store: ChatStore; scrollRoot: RefObject<HTMLElement | null> }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const onAnswer: Answer = (callId, decision, reason, agent) => store.answer(callId, decision, reason, agent);
  // Scrolling to the top asks the host for the page of turns before the first one loaded.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        // Only a transcript that scrolls loads by itself; a short one shows the button instead, so a
        // session does not pull its whole history in at open.
        const box = scrollRoot.current;
        const scrolls = !!box && box.scrollHeight > box.clientHeight;
        if (scrolls && entries.some((e) => e.isIntersecting)) void store.loadOlder();
      },
      { root: scrollRoot.current, rootMargin: '200px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  const turns = store.turns.value;
  return (
    <div class="turn-list">
      <div ref={sentinel} class="older-sentinel">
        {store.hasOlder.value && (
          <button type="button" class="text-button" disabled={store.loadingOlder.value} onClick={() => void store.loadOlder()}>
            {store.loadingOlder.value ? 'Loading earlier turns…' : 'Load earlier turns'}
          </button>
        )}
        {store.olderError.value && <p class="recall-error">{store.olderError.value}</p>}
      </div>
      {turns.map((turn, i) => (
        <TurnSlot
          key={turn.index}
          turn={turn}
          root={scrollRoot}
          initiallyVisible={i >= turns.length - INITIALLY_RENDERED}
          running={store.busy.value && i === turns.length - 1}
          onAnswer={onAnswer}
        />
      ))}
    </div>
  );
}
