import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import type { ApprovalDecision, ResultKind, TranscriptItem } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { DiffText } from '../common/DiffText';
import { formatTokens } from '../common/format';
import { LinkedText } from '../common/LinkedText';
import { RecallScope } from '../common/RecallScope';
import { ApprovalPrompt } from './ApprovalPrompt';
import { outcomeParts, toolArgument } from './toolOutcome';

type ToolItem = Extract<TranscriptItem, { type: 'tool' }>;

/** The result's kind in plain words (issue 34, item 11); the report's decisions keep the precise names. */
const KIND_LABEL: Partial<Record<ResultKind, string>> = {
  'read-stub': 'unchanged',
  capped: 'shortened',
  'same-result': 'same as before',
  diff: 'diff',
  recall: 'recall',
  error: 'error',
};

/** What each kind did, for the badge's tooltip. */
const KIND_EXPLAINED: Partial<Record<ResultKind, string>> = {
  'read-stub': 'The file had not changed since an earlier read, so the model was told so in one line instead of the text again.',
  capped: 'Long output: the model saw its start and end; the whole output is kept (activate its id to see it).',
  'same-result': 'The same search gave the same result as before, so the model was pointed to the earlier one.',
  diff: 'The edit was shown to the model as a diff, not the whole file.',
};

const STATUS_LABEL: Partial<Record<ToolItem['status'], string>> = {
  running: 'running…',
  'awaiting-approval': 'needs approval',
  approved: 'approved',
  denied: 'denied',
  cancelled: 'cancelled',
};

/** A read's bracket names a path and its first line: `[#a3f2 src/app.ts lines 1-200 of 340 sha …]`. */
function pathInBracket(bracket: string): { path: string; line: number } | undefined {
  const match = /^\[#[0-9a-f]+ (\S+) lines (\d+)-\d+ of/.exec(bracket);
  return match ? { path: match[1]!, line: Number(match[2]) } : undefined;
}

/**
 * One tool call: a collapsed line (tool, key argument, outcome, bracket, what was saved) that expands to the
 * result (an edit's diff coloured). The tool's name is shown once: the summary the loop gives starts with it.
 */
export function ToolCall({
  item,
  onAnswer,
  agent,
  children,
}: {
  item: ToolItem;
  onAnswer: (callId: string, decision: ApprovalDecision, reason?: string) => void;
  /** The child agent whose call this is (its prompt names it); absent for the session's own. */
  agent?: string;
  /** A `task` call's child block, under its line. */
  children?: ComponentChildren;
}) {
  const bridge = useBridge();
  const expanded = useSignal(false);
  const { result } = item;
  const kindLabel = result ? KIND_LABEL[result.kind] : undefined;
  const statusLabel = item.status === 'done' ? undefined : STATUS_LABEL[item.status];
  const file = result ? pathInBracket(result.bracket) : undefined;
  const argument = toolArgument(item.tool, item.summary);
  const outcome = outcomeParts(result?.outcome);
  const outcomeId = `outcome-${item.callId.replace(/[^\w-]/g, '_')}`;
  return (
    <RecallScope class={`tool status-${item.status} ${result ? `kind-${result.kind}` : ''}`}>
      <div class="tool-line">
        <button
          type="button"
          class="tool-toggle"
          aria-expanded={expanded.value}
          disabled={!result}
          title={result ? 'Show what the model saw' : undefined}
          aria-describedby={outcome.length > 0 ? outcomeId : undefined}
          onClick={() => (expanded.value = !expanded.value)}
        >
          <span class="chevron" aria-hidden="true">
            {expanded.value ? '▾' : '▸'}
          </span>
          <span class="tool-name">{item.tool}</span>
          {argument !== '' && (
            <>
              {' '}
              <span class="tool-summary">{argument}</span>
            </>
          )}
        </button>
        {outcome.length > 0 && (
          <span class="tool-outcome" id={outcomeId}>
            {outcome.map((part, i) => (
              <span key={i} class={`outcome-part tone-${part.tone}`}>
                {part.spoken === undefined ? (
                  part.text
                ) : (
                  <>
                    <span aria-hidden="true">{part.text}</span>
                    <span class="sr-only">{part.spoken}</span>
                  </>
                )}
                {i < outcome.length - 1 ? ' ' : ''}
              </span>
            ))}
          </span>
        )}
        {result && (
          <span class="tool-bracket">
            <LinkedText text={result.bracket} />
          </span>
        )}
        {kindLabel &&
          (result!.kind === 'diff' ? (
            // An edit's diff opens in VS Code's diff editor (issue 34, item 12: the pill looked like a button and did nothing).
            <button
              type="button"
              class={`kind-badge kind-${result!.kind} kind-action`}
              title={`${KIND_EXPLAINED.diff} Open it in the diff editor.`}
              onClick={() => bridge.notify({ type: 'openResult', resultId: result!.id })}
            >
              {kindLabel} ↗{result!.tokensSaved > 0 && ` · ${formatTokens(result!.tokensSaved)} tokens saved`}
            </button>
          ) : (
            <span class={`kind-badge kind-${result!.kind}`} title={KIND_EXPLAINED[result!.kind]}>
              {kindLabel}
              {result!.tokensSaved > 0 && ` · ${formatTokens(result!.tokensSaved)} tokens saved`}
            </span>
          ))}
        {statusLabel && <span class={`tool-status status-${item.status}`}>{statusLabel}</span>}
        {result && agent === undefined && (
          // Issue 35: the report's "In context now" with this result chosen, to see what dropping it costs.
          <button
            type="button"
            class="text-button tool-drop"
            title="Drop this result from the context: see what it costs and saves first"
            onClick={() => bridge.notify({ type: 'showContext', resultIds: [result.id] })}
          >
            drop…
          </button>
        )}
      </div>
      {!result && item.liveOutput && (
        // A running command's newest output (bounded by the host and the transcript); its result replaces it.
        <pre class="tool-live-output" aria-live="off">
          {item.liveOutput}
        </pre>
      )}
      {item.status === 'awaiting-approval' && item.approvalReason && (
        <p class="approval-why" role="note">
          Asks every time: this call {item.approvalReason}.
        </p>
      )}
      {item.status === 'awaiting-approval' && (
        <ApprovalPrompt
          tool={item.tool}
          summary={item.summary}
          {...(agent !== undefined ? { agent } : {})}
          {...(item.approval ? { detail: item.approval } : {})}
          {...(item.approvalBound ? { bound: item.approvalBound } : {})}
          revised={item.approvalRevised ?? false}
          onAnswer={(decision, reason) => onAnswer(item.callId, decision, reason)}
          onReview={(path) => bridge.notify({ type: 'reviewChange', callId: item.callId, ...(agent !== undefined ? { agent } : {}), path })}
        />
      )}
      {children}
      {expanded.value && result && (
        <div class="tool-result">
          {file && (
            <button type="button" class="text-button" onClick={() => bridge.notify({ type: 'openFile', path: file.path, line: file.line })}>
              Open {file.path}
            </button>
          )}
          {result.kind === 'diff' ? (
            <DiffText class="tool-result-text" text={result.text} Line={LinkedText} label={`Changes of ${result.id}`} />
          ) : (
            <pre class="tool-result-text">
              <LinkedText text={result.text} firstBodyLine={1} />
            </pre>
          )}
        </div>
      )}
    </RecallScope>
  );
}
