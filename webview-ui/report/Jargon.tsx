/**
 * The report's words a new user does not know, explained in place: a dotted term whose explanation shows
 * on hover and on keyboard focus (a title alone is mouse-only), and is the term's description to a screen reader.
 */
export const JARGON = {
  raw: 'Raw: tokens counted by Cairn’s own tokenizer on the text sent, before any correction.',
  calibrated:
    'Calibrated: the raw count scaled by how the provider’s counts compared with Cairn’s on earlier answers in this session, so it is close to what the provider bills.',
  calibration:
    'Calibration: how many tokens the provider counted for each token Cairn’s tokenizer counted, on this session’s earlier answers (×1.01: the provider counts 1% more); long runs without spaces (hashes, minified code) have their own ratio.',
  generation:
    'Generation: one conversation the model sees, from the session’s start or from a compaction to the next. A compaction starts a new generation with a summary.',
  breakpoint:
    'Breakpoint: a message where Cairn asks the provider to cache everything before it, so the next request pays the cheaper cache-read price for that prefix.',
} as const;

import { useId } from 'preact/hooks';

export function Jargon({ term, explanation }: { term: string; explanation: string }) {
  const id = useId();
  return (
    <span class="jargon" tabIndex={0} aria-describedby={id}>
      {term}
      <span role="tooltip" id={id} class="jargon-tip">
        {explanation}
      </span>
    </span>
  );
}
