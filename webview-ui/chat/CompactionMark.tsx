import { useSignal } from '@preact/signals';
import type { CompactionDetails } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { formatTokens } from '../common/format';
import { Markdown } from '../common/Markdown';
import { RecallScope } from '../common/RecallScope';
import { ContextLeftToggle } from './ContextLeft';

/** Shows a compaction's summary and files table on request (ids in both are recall links). */
export function CompactionDetailsToggle({ generation, label, preview }: { generation: number; label?: string; preview?: boolean }) {
  const bridge = useBridge();
  const details = useSignal<CompactionDetails | undefined>(undefined);
  const open = useSignal(false);
  const error = useSignal<string | undefined>(undefined);
  const toggle = () => {
    open.value = !open.value;
    if (open.value && !details.value) {
      bridge.request('compactionDetails', preview ? { generation, preview: true } : { generation }).then(
        (result) => (details.value = result),
        (reason: Error) => (error.value = reason.message),
      );
    }
  };
  return (
    <>
      <button type="button" class="text-button" aria-expanded={open.value} onClick={toggle}>
        {open.value ? 'Hide summary' : (label ?? 'Show summary and files')}
      </button>
      {open.value && (
        <RecallScope class="compaction-details">
          {error.value && <p class="recall-error">{error.value}</p>}
          {!details.value && !error.value && <p class="quiet">Loading the summary…</p>}
          {details.value && <Markdown source={details.value.summary} />}
          {details.value?.filesTable && <Markdown class="files-table" source={details.value.filesTable} />}
        </RecallScope>
      )}
    </>
  );
}

export function CompactionMark({
  generation,
  tokensBefore,
  tokensAfter,
  hasDetails,
  showLeft,
}: {
  generation: number;
  tokensBefore: number;
  tokensAfter: number;
  hasDetails: boolean;
  showLeft?: true;
}) {
  return (
    <div class="compaction-mark" role="note">
      <span class="compaction-line">
        {/* The generation's number is the report's precise term (issue 34, item 11); the chat says what happened. */}
        Context compacted · {formatTokens(tokensBefore)} → {formatTokens(tokensAfter)} tokens
      </span>
      {hasDetails && <CompactionDetailsToggle generation={generation} />}
      {hasDetails && <ContextLeftToggle generation={generation} initiallyOpen={showLeft === true} />}
    </div>
  );
}
