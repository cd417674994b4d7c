import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ApprovalDecision, ApprovalDetail, ApprovalFile, BoundQuestion } from '../../src/shared/protocol';
import { DiffText } from '../common/DiffText';
import { VisibleText } from '../common/VisibleText';
import { ProposedDiffs } from './ProposedDiffs';

const CHANGE_LABEL: Record<ApprovalFile['change'], string> = {
  write: 'write',
  edit: 'edit',
  add: 'add',
  update: 'update',
  delete: 'delete',
};

/**
 * What the call will do, in full: the whole command in its own scrolling box, every path a write or a
 * patch touches (a move's destination too), hidden characters made visible. The line above is cut.
 */
function ApprovalDetails({
  detail,
  revised,
  onReview,
}: {
  detail: ApprovalDetail;
  revised: boolean;
  onReview: ((path: string) => void) | undefined;
}) {
  return (
    <div class="approval-detail">
      {detail.mcp !== undefined && (
        <p class="approval-mcp">
          MCP server <code>{detail.mcp.server}</code>, tool <code>{detail.mcp.tool}</code>
        </p>
      )}
      {detail.arguments !== undefined && (
        <pre class="approval-command" aria-label="Arguments">
          <VisibleText text={detail.arguments} />
        </pre>
      )}
      {detail.command !== undefined && (
        <pre class="approval-command" aria-label="Command">
          <VisibleText text={detail.command} />
        </pre>
      )}
      {detail.files && detail.files.length > 0 && (
        <ul class="approval-files" aria-label="Files">
          {detail.files.map((file, i) => (
            <li key={i}>
              <span class="approval-change">{file.moveTo !== undefined ? 'move' : CHANGE_LABEL[file.change]}</span>{' '}
              <code>
                <VisibleText text={file.path} />
              </code>
              {file.moveTo !== undefined && (
                <>
                  {' → '}
                  <code>
                    <VisibleText text={file.moveTo} />
                  </code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {detail.diffs !== undefined && detail.diffs.length > 0 ? (
        // The change worked out on the files, with context and line numbers: what "Allow" will write.
        <ProposedDiffs diffs={detail.diffs} revised={revised} onOpen={(path) => onReview?.(path)} />
      ) : (
        detail.preview !== undefined && (
          // The change from the call's input alone (no file could be read for it), coloured, before the buttons.
          <DiffText class="approval-preview" text={detail.preview} Line={VisibleText} label="Change to approve" />
        )
      )}
      {detail.notKept !== undefined && (
        // Before "Allow once": what this command may change that Restore cannot bring back (issue 34, item 5).
        <p class="approval-not-kept">
          <VisibleText text={detail.notKept} />
        </p>
      )}
      {detail.problem !== undefined && (
        <p class="approval-problem">
          <VisibleText text={detail.problem} />
        </p>
      )}
    </div>
  );
}

/**
 * A bound Cairn reached (too many sub-agents, too many of their requests): what was spent and what each
 * answer does, then Continue (this once) or Stop. No "always": a bound is raised one question at a time.
 */
function BoundPrompt({
  bound,
  agent,
  onAnswer,
}: {
  bound: BoundQuestion;
  agent?: string;
  onAnswer: (decision: ApprovalDecision, reason?: string) => void;
}) {
  const group = useRef<HTMLDivElement>(null);
  // Focus the prompt itself, never a button (see ApprovalPrompt), and never while the user is typing.
  useEffect(() => {
    const active = document.activeElement;
    const typing = active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement;
    if (!typing) group.current?.focus();
  }, []);
  return (
    <div
      ref={group}
      class="approval approval-bound"
      role="group"
      tabIndex={-1}
      aria-label={agent !== undefined ? `Go past ${bound.setting}? Asked for sub-agent ${agent}` : `Go past ${bound.setting}?`}
    >
      <p class="approval-question">
        <VisibleText text={bound.text} />
      </p>
      <button type="button" class="button primary" onClick={() => onAnswer('allow-once')}>
        Continue
      </button>
      <button type="button" class="button secondary" onClick={() => onAnswer('deny')}>
        Stop
      </button>
    </div>
  );
}

/** Allow once / this session / always / deny with a reason, inline under the tool call that asks. */
export function ApprovalPrompt({
  tool,
  summary,
  agent,
  detail,
  bound,
  revised,
  onAnswer,
  onReview,
}: {
  tool: string;
  /** The call's line (the tool and its key argument), named in a child's question. */
  summary?: string;
  /** The child agent that asks (issue 19): the question names it; absent for the session's own agent. */
  agent?: string;
  detail?: ApprovalDetail;
  /** The question is whether to go past a bound, not whether to run the call (`BoundPrompt`). */
  bound?: BoundQuestion;
  /** The user changed the proposed change in the diff editor (its diffs are their version). */
  revised?: boolean;
  onAnswer: (decision: ApprovalDecision, reason?: string) => void;
  /** Opens one file of the proposed change in the diff editor. */
  onReview?: (path: string) => void;
}) {
  if (bound) return <BoundPrompt bound={bound} {...(agent !== undefined ? { agent } : {})} onAnswer={onAnswer} />;
  return (
    <ToolApprovalPrompt
      tool={tool}
      {...(summary !== undefined ? { summary } : {})}
      {...(agent !== undefined ? { agent } : {})}
      {...(detail ? { detail } : {})}
      revised={revised ?? false}
      onAnswer={onAnswer}
      onReview={onReview}
    />
  );
}

/**
 * The question for a call that may run: allow once, for this session, always (for this user, in every workspace,
 * until revoked), or deny with a reason. "This session" and "always" name what they allow: the edit family as one.
 */
function ToolApprovalPrompt({
  tool,
  summary,
  agent,
  detail,
  revised,
  onAnswer,
  onReview,
}: {
  tool: string;
  summary?: string;
  agent?: string;
  detail?: ApprovalDetail;
  revised: boolean;
  onAnswer: (decision: ApprovalDecision, reason?: string) => void;
  onReview: ((path: string) => void) | undefined;
}) {
  const allows = detail?.allowance ?? tool;
  const denying = useSignal(false);
  const reason = useSignal('');
  const group = useRef<HTMLDivElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  // An approval is the one thing that blocks the agent, so bring it to the keyboard user's attention by
  // focusing the prompt itself (Tab reaches the buttons). Never a button: an Enter meant for something
  // else must not approve a command. And never while the user is typing.
  useEffect(() => {
    const active = document.activeElement;
    const typing = active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement;
    if (!typing) group.current?.focus();
  }, []);
  useEffect(() => {
    if (denying.value) reasonInput.current?.focus();
  }, [denying.value]);

  const deny = () => onAnswer('deny', reason.value.trim() === '' ? undefined : reason.value.trim());
  return (
    <div
      ref={group}
      class="approval"
      role="group"
      tabIndex={-1}
      aria-label={agent !== undefined ? `Approve ${tool} for sub-agent ${agent}` : `Approve ${tool}`}
    >
      {detail && <ApprovalDetails detail={detail} revised={revised} onReview={onReview} />}
      {agent !== undefined ? (
        <span class="approval-question">
          <strong class="approval-agent">{agent}</strong> wants to run <VisibleText text={summary || tool} />. Allow it?
        </span>
      ) : (
        <span class="approval-question">Allow this {tool} call?</span>
      )}
      {!denying.value ? (
        <>
          <button type="button" class="button primary" onClick={() => onAnswer('allow-once')}>
            {revised ? 'Allow your version' : 'Allow once'}
          </button>
          <button
            type="button"
            class="button secondary"
            title={`Runs ${allows} without asking until this session ends (a new or another session asks again)`}
            onClick={() => onAnswer('allow-session')}
          >
            Allow {allows} this session
          </button>
          <button
            type="button"
            class="button secondary"
            title={`Runs ${allows} without asking in every workspace, until you revoke it (Cairn: Manage Allowances, or the chat's Allowed list). Protected paths still ask.`}
            onClick={() => onAnswer('allow-always')}
          >
            Always allow {allows}
          </button>
          <button type="button" class="button secondary" onClick={() => (denying.value = true)}>
            Deny…
          </button>
        </>
      ) : (
        <>
          <input
            ref={reasonInput}
            class="approval-reason"
            type="text"
            placeholder="Why not? (the model sees this)"
            aria-label="Reason for denying"
            value={reason.value}
            onInput={(e) => (reason.value = (e.currentTarget as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                deny();
              } else if (e.key === 'Escape') {
                e.stopPropagation();
                denying.value = false;
              }
            }}
          />
          <button type="button" class="button primary" onClick={deny}>
            Deny
          </button>
          <button type="button" class="button secondary" onClick={() => (denying.value = false)}>
            Back
          </button>
        </>
      )}
    </div>
  );
}
