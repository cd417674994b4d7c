import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { RecallPanel, RecallScope } from '../common/RecallScope';
import { AllowancesList } from './AllowancesList';
import { ApprovalWaiting } from './ApprovalWaiting';
import { ChatAnnouncer } from './ChatAnnouncer';
import type { ChatStore } from './chatStore';
import { revealTurn } from './revealTurn';
import { CompactionNotice } from './CompactionNotice';
import { ColdSendNotice } from './ColdSendNotice';
import { FollowingContext, useFollowEnd } from './followEnd';
import { Composer } from './Composer';
import { PlanStart } from './PermissionModeControl';
import { QueuedMessages } from './QueuedMessages';
import { SkillsList } from './SkillsList';
import { TodoList } from './TodoList';
import { TurnList } from './TurnList';
import { RegenerateButton } from './RegenerateButton';
import { UsageMeter } from './UsageMeter';
import { Welcome } from './Welcome';
import { EmptyChat } from './EmptyChat';

export function ChatView({ store }: { store: ChatStore }) {
  const scroller = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const commandRecalls = useSignal<readonly string[]>([]);
  const compactionDismissed = useSignal(false);

  // Follow the stream while the reader is at the end; leave them alone once they scroll up.
  const follow = useFollowEnd(scroller, content);

  // A new turn is the reader's own doing (a message sent, Send Again, an edit, Regenerate): show it and follow
  // it, wherever the view was; its answer streams below it.
  const lastTurn = store.turns.value.at(-1)?.index ?? -1;
  const lastTurnSeen = useRef(lastTurn);
  useEffect(() => {
    if (lastTurn > lastTurnSeen.current) follow.follow();
    lastTurnSeen.current = lastTurn;
  }, [lastTurn]);

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
    follow.follow();
  }, [requested]);

  // The report's "Show turn N in the chat".
  const reveal = store.revealRequest.value;
  useEffect(() => {
    if (!reveal) return;
    follow.release();
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
      <main ref={scroller} class="transcript" aria-label="Conversation" aria-busy={store.busy.value} {...follow.handlers}>
        <div ref={content} class="transcript-content">
          {store.welcome.value && <Welcome welcome={store.welcome.value} />}
          {store.initialized.value && turns.length === 0 && !store.hasOlder.value && !store.welcome.value && <EmptyChat store={store} />}
          <FollowingContext.Provider value={follow.isFollowing}>
            <TurnList store={store} scrollRoot={scroller} />
          </FollowingContext.Provider>
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
      <TodoList items={store.todo.value} working={store.busy.value} />
      <SkillsList skills={store.skills.value} onToggle={(name, active) => store.toggleSkill(name, active)} />
      <AllowancesList allowances={store.allowances.value} onRevoke={(id) => store.revokeAllowance(id)} />
      <QueuedMessages store={store} />
      <ColdSendNotice store={store} />
      <PlanStart store={store} />
      <Composer store={store} />
    </div>
  );
}
