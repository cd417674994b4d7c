import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ColdSendChoice, ColdSendCostView, ColdSendView } from '../../src/shared/protocol';
import { formatCost, formatTokens } from '../common/format';
import type { ChatStore } from './chatStore';

/**
 * The cold-send notice above the input (issue 31 §3): the message about to go finds the prompt cache expired,
 * so it waits here, in sight, while the notice says what sending it writes again and costs, and what eliding or
 * compacting first would. One click chooses; Escape sends it as is (as Cairn always did), and "Don't ask again
 * this session" makes that the answer from now on.
 */
export function ColdSendNotice({ store }: { store: ChatStore }) {
  const notice = store.coldSend.value;
  const dontAsk = useSignal(false);
  const first = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!notice) return;
    dontAsk.value = false;
    first.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      store.answerColdSend(notice.id, 'asIs', dontAsk.value);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [notice?.id]);

  if (!notice) return null;
  const choose = (choice: ColdSendChoice) => store.answerColdSend(notice.id, choice, dontAsk.value);
  return (
    <section class="cold-send" role="region" aria-label="Cache expired">
      <p class="cold-send-title" role="status">
        {headline(notice)}
      </p>
      <p class="cold-send-text quiet" title={notice.text}>
        Waiting to send: <span class="cold-send-message">{notice.text}</span>
      </p>
      <ul class="cold-send-ways">
        <li>
          <strong>As is</strong>: {asIsLine(notice)}
        </li>
        {notice.elide && (
          <li>
            <strong>Elide first</strong>: shortens {notice.elide.results} earlier result{notice.elide.results === 1 ? '' : 's'} that newer
            ones replace to one line each (nothing is lost: each id still shows it), then writes {cost(notice.elide)}.
          </li>
        )}
        {notice.compact && (
          <li>
            <strong>Compact first</strong>: summarizes the older turns
            {notice.compact.summaryUsd !== null ? ` (the summary request about ${formatCost(notice.compact.summaryUsd)})` : ''}, then writes
            at most ~{formatTokens(notice.compact.tokens)} tokens
            {notice.compact.usd !== null ? `: about ${formatCost(notice.compact.usd)} in all` : ''}.
          </li>
        )}
      </ul>
      <div class="cold-send-actions">
        <button
          type="button"
          class="button primary"
          ref={first}
          onClick={() => choose('asIs')}
          title="Send it now, as Cairn would have (Escape)"
        >
          Send as is
        </button>
        {notice.elide && (
          <button type="button" class="button secondary" onClick={() => choose('elide')}>
            Elide first
          </button>
        )}
        {notice.compact && (
          <button type="button" class="button secondary" onClick={() => choose('compact')}>
            Compact first
          </button>
        )}
        <label class="cold-send-quiet quiet">
          <input
            type="checkbox"
            checked={dontAsk.value}
            onChange={(e) => (dontAsk.value = (e.currentTarget as HTMLInputElement).checked)}
          />
          Don't ask again this session
        </label>
      </div>
    </section>
  );
}

/** "The cache expired 12 min ago" / "The cache expires in 10 s", with its lifetime. */
function headline(notice: ColdSendView): string {
  const lifetime = `(it keeps ${notice.lifetimeMinutes === 60 ? 'an hour' : `${notice.lifetimeMinutes} minutes`} after each request)`;
  if (notice.expiredForMs <= 0) return `The prompt cache expires in ${Math.max(1, Math.ceil(-notice.expiredForMs / 1000))} s ${lifetime}.`;
  const minutes = Math.round(notice.expiredForMs / 60_000);
  return `The prompt cache expired ${minutes < 1 ? 'just now' : `${minutes} min ago`} ${lifetime}: this message writes the context again.`;
}

function asIsLine(notice: ColdSendView): string {
  const own =
    notice.automatic === 'elision'
      ? ' (Cairn shortens the earlier results newer ones replace first, on its own)'
      : notice.automatic === 'compaction'
        ? ' (Cairn compacts first, on its own: the context passed the threshold)'
        : '';
  return `writes ${cost(notice.asIs)}${own}.`;
}

function cost(way: ColdSendCostView): string {
  return `~${formatTokens(way.tokens)} tokens${way.usd !== null ? ` (about ${formatCost(way.usd)})` : ''}`;
}
