import { knownResultIds } from './knownIds';
import { elidedStartLine } from './elidedLines';
import { splitResultIds } from './resultIds';

/**
 * Plain text with every result id the session gave as a recall link (handled by the enclosing RecallScope).
 * With `firstBodyLine` (the text is a result as the model saw it), the id in an elided-output pointer
 * opens the stored result at the first elided line.
 */
export function LinkedText({ text, firstBodyLine }: { text: string; firstBodyLine?: number }) {
  let at = 0;
  return (
    <>
      {splitResultIds(text, knownResultIds.value).map((segment, i) => {
        const start = at;
        at += segment.kind === 'id' ? segment.id.length : segment.text.length;
        if (segment.kind === 'text') return segment.text;
        const from = firstBodyLine === undefined ? undefined : elidedStartLine(text, start, firstBodyLine);
        return (
          <button
            key={i}
            type="button"
            class="recall-link"
            data-recall-id={segment.id}
            data-recall-from={from}
            title={from === undefined ? `Show stored result ${segment.id}` : `Show the elided lines of ${segment.id}, from line ${from}`}
          >
            {segment.id}
          </button>
        );
      })}
    </>
  );
}
