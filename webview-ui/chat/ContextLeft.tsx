import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ContextLeftView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { formatTokens } from '../common/format';
import { RecallScope } from '../common/RecallScope';

/**
 * What a compaction took out of the model's view (issue 35 §3): the messages the summary replaced and the
 * results no longer in front of the model, each id a recall link (the stored result is still there in full).
 * Asked for when opened: the host derives it from the journal (`core/compaction/contextLeft.ts`).
 */
export function ContextLeftToggle({ generation, initiallyOpen }: { generation: number; initiallyOpen: boolean }) {
  const bridge = useBridge();
  const left = useSignal<ContextLeftView | null | undefined>(undefined);
  const open = useSignal(false);
  const error = useSignal<string | undefined>(undefined);
  const toggle = () => {
    open.value = !open.value;
    if (open.value && left.value === undefined) {
      bridge.request('compactionDetails', { generation }).then(
        (details) => (left.value = details.left ?? null),
        (reason: Error) => (error.value = reason.message),
      );
    }
  };
  // Opened once when it appears (an automatic compaction as it happens); the user's clicks decide after that.
  useEffect(() => {
    if (initiallyOpen) toggle();
  }, []);
  return (
    <>
      <button type="button" class="text-button" aria-expanded={open.value} onClick={toggle}>
        {open.value ? 'Hide what left' : 'What left the context'}
      </button>
      {open.value && (
        <RecallScope class="context-left">
          {error.value && <p class="recall-error">{error.value}</p>}
          {left.value === undefined && !error.value && <p class="quiet">Loading what left the context…</p>}
          {left.value === null && <p class="quiet">The journal does not say what this compaction took out.</p>}
          {left.value && <ContextLeftList left={left.value} />}
        </RecallScope>
      )}
    </>
  );
}

function ContextLeftList({ left }: { left: ContextLeftView }) {
  const messages = left.summarizedMessages === 1 ? '1 message' : `${left.summarizedMessages} messages`;
  return (
    <div aria-label="What left the context">
      <p>
        {messages} summarised
        {left.userMessages.length > 0 ? ', among them your own:' : '.'}
      </p>
      {left.userMessages.length > 0 && (
        <ul class="context-left-messages">
          {left.userMessages.map((words, i) => (
            <li key={i}>“{words}”</li>
          ))}
        </ul>
      )}
      {left.results.length === 0 ? (
        <p>No result left: every result is still in front of the model.</p>
      ) : (
        <>
          <p>
            {left.results.length === 1 ? '1 result' : `${left.results.length} results`} no longer in front of the model (each still
            recallable):
          </p>
          <ul class="context-left-results">
            {left.results.map((result) => (
              <li key={result.id}>
                <button type="button" class="recall-link" data-recall-id={result.id} title={`Show stored result ${result.id}`}>
                  {result.id}
                </button>{' '}
                <span class="context-left-subject">{result.subject}</span>{' '}
                <span class="quiet">{result.oneLine ? 'already one line' : `${formatTokens(result.tokens)} tokens`}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
