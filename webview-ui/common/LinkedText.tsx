import { knownResultIds } from './knownIds';
import { splitResultIds } from './resultIds';

/** Plain text with every result id the session gave as a recall link (handled by the enclosing RecallScope). */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitResultIds(text, knownResultIds.value).map((segment, i) =>
        segment.kind === 'id' ? (
          <button key={i} type="button" class="recall-link" data-recall-id={segment.id} title={`Show stored result ${segment.id}`}>
            {segment.id}
          </button>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
