import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { RecallPanel, RecallScope } from '../common/RecallScope';
import { ApprovalWaiting } from './ApprovalWaiting';
import { ChatAnnouncer } from './ChatAnnouncer';
import type { ChatStore } from './chatStore';
import { revealTurn } from './revealTurn';
import { CompactionNotice } from './CompactionNotice';
import { Composer } from './Composer';
import { QueuedMessages } from './QueuedMessages';
import { SkillsList } from './SkillsList';
import { TodoList } from './TodoList';
import { TurnList } from './TurnList';
import { RegenerateButton } from './RegenerateButton';
import { UsageMeter } from './UsageMeter';
import { Welcome } from './Welcome';

/** How close to the bottom counts as "following" the stream. */
const STICK_PX = 48;

export function ChatView({ store }: { store: ChatStore }) {
  const scroller = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const commandRecalls = useSignal<readonly string[]>([]);
  const compactionDismissed = useSignal(false);

  // Follow the stream while the reader is at the bottom; leave them alone once they scroll up.
  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) box.scrollTop = box.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  // Escape cancels from anywhere in the panel (inputs that use Escape themselves stop it first).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && store.busy.value) store.cancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // `Cairn: Recall Result…` from the palette: show the id at the end of the transcript.
  const requested = store.recallRequest.value;
  useEffect(() => {
    if (!requested) return;
    if (!commandRecalls.value.includes(requested)) commandRecalls.value = [...commandRecalls.value, requested];
    store.recallRequest.value = undefined;
    stick.current = true;
  }, [requested]);

  // The report's "Show turn N in the chat".
  const reveal = store.revealRequest.value;
  useEffect(() => {
    if (!reveal) return;
    stick.current = false;
    void revealTurn(store, reveal.turn, (turn) => document.querySelector<HTMLElement>(`.turn[data-turn="${turn}"]`));
  }, [reveal]);

  const compaction = store.compaction.value;
  useEffect(() => {
    compactionDismissed.value = false;
  }, [compaction]);

  const turns = store.turns.value;
  return (
    <div class="chat">
      <header class="chat-header">
        <UsageMeter meter={store.meter.value} />
      </header>
      <main
        ref={scroller}
        class="transcript"
        aria-label="Conversation"
        aria-busy={store.busy.value}
        onScroll={(e) => {
          const box = e.currentTarget as HTMLElement;
          stick.current = box.scrollHeight - box.scrollTop - box.clientHeight < STICK_PX;
        }}
      >
        <div ref={content} class="transcript-content">
          {store.welcome.value && <Welcome welcome={store.welcome.value} />}
          {turns.length === 0 && !store.hasOlder.value && !store.welcome.value && (
            <p class="empty quiet">
              Ask Cairn to do something. Every tool result gets an id such as #a3f2 in its bracket; activate one to see the stored result in
              full.
            </p>
          )}
          <TurnList store={store} scrollRoot={scroller} />
          <RegenerateButton store={store} />
          {commandRecalls.value.length > 0 && (
            <RecallScope class="command-recalls">
              {commandRecalls.value.map((id) => (
                <RecallPanel key={id} resultId={id} onClose={() => (commandRecalls.value = commandRecalls.value.filter((x) => x !== id))} />
              ))}
            </RecallScope>
          )}
          {store.busy.value && <div class="working quiet">Working…</div>}
        </div>
      </main>
      <ApprovalWaiting turns={turns} />
      <ChatAnnouncer store={store} />
      <CompactionNotice state={compactionDismissed.value ? null : compaction} onDismiss={() => (compactionDismissed.value = true)} />
      <TodoList items={store.todo.value} />
      <SkillsList skills={store.skills.value} onToggle={(name, active) => store.toggleSkill(name, active)} />
      <QueuedMessages store={store} />
      <Composer store={store} />
    </div>
  );
}
