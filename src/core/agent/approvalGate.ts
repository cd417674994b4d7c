import type { LedgerResult } from '../ledger/types';
import type { CommandSandboxState } from '../ports';
import type { ApprovedChange } from '../tools/changePlan';
import {
  allowanceNoun,
  approvalVerdict,
  denialMessage,
  type ApprovalDecision,
  type ApprovalDetail,
  type ApprovalSettings,
  type Approver,
  type McpToolOwner,
} from './approval';
import { proposalDiffs } from './changeProposal';
import { DEFAULT_PERMISSION_MODE, modeVerdict } from './permissionMode';
import type { AgentEvent } from './events';
import type { ToolExecutor } from './ports';
import { webFetchVerdict } from './webFetchApproval';
import { WEB_FETCH_TOOL_NAME } from '../web/webFetchTool';

/**
 * What the gate needs of the loop's parts. The gate owns this shape and the loop's deps extend it (the loop
 * passes its own deps in), so the gate never imports the loop that calls it.
 */
export interface ApprovalGateDeps {
  readonly tools: ToolExecutor;
  readonly approver: Approver;
  readonly approvals: () => ApprovalSettings;
  readonly isReadOnlyTool: (tool: string) => boolean;
  /** The full picture of a call for its approval prompt (see `ApprovalDetail`). */
  readonly describeForApproval?: (tool: string, input: unknown) => ApprovalDetail;
  /** Whose an MCP tool is (undefined: not an MCP tool of this session's): approvals are bound to its server. */
  readonly mcpOwner?: (tool: string) => McpToolOwner | undefined;
  /** Why a writing call needs an explicit approval (it writes a protected path); see `protectedWriteReason`. */
  readonly protectedReason?: (tool: string, input: unknown) => Promise<string | undefined>;
  /** What a command may touch that its checkpoint will not keep (`CheckpointRecorder.commandNotKept`). */
  readonly commandNotKept?: (command: string) => Promise<string | undefined>;
  /** What confines commands now (`Workspace.commandSandbox`): the `auto` mode runs only what it holds without asking. */
  readonly commandSandbox?: () => Promise<CommandSandboxState>;
  readonly emit: (event: AgentEvent) => void;
  /** Why this agent may not run a tool at all (one it was not offered), or undefined: checked before any approval. */
  readonly notOffered?: (tool: string) => string | undefined;
  /**
   * The sub-agent this loop runs (its id): its approval requests name it. (Its model requests carry the id
   * through the child's model client, `taggedModel`.) Absent for the session's own agent.
   */
  readonly agent?: string;
}

/**
 * Runs one tool call if it may run: read-only calls at once; others per the settings and workspace trust,
 * asking the user when they must (a sub-agent's request names it). A refused, declined or cancelled call is
 * answered without running.
 */
export async function runWithApproval(
  deps: ApprovalGateDeps,
  call: { callId: string; name: string; input: unknown },
  summary: string,
  signal: AbortSignal,
): Promise<{ result: LedgerResult; durationMs?: number }> {
  const unrun = async (message: string) => ({ result: await deps.tools.answerWithoutRunning(call, message) });
  // A tool this agent was not given (an explore child naming bash) is refused before anyone is asked:
  // an "always allow" given to such a prompt would widen what the session's agent may do.
  const missing = deps.notOffered?.(call.name);
  if (missing !== undefined) return unrun(missing);
  const readOnly = deps.isReadOnlyTool(call.name);
  const protectedReason = readOnly || !deps.protectedReason ? undefined : await deps.protectedReason(call.name, call.input);
  const owner = deps.mcpOwner?.(call.name);
  const settings = deps.approvals();
  const mode = settings.mode ?? DEFAULT_PERMISSION_MODE;
  const command = call.name === 'bash' ? commandOf(call.input) : undefined;
  // The permission mode (permissionMode.ts) judges the call as it runs, over what the settings say.
  const sandbox = mode === 'auto' && command !== undefined ? await deps.commandSandbox?.() : undefined;
  // web_fetch is allowed per domain and may ask in an untrusted workspace (webFetchApproval.ts).
  const web = call.name === WEB_FETCH_TOOL_NAME && !owner ? webFetchVerdict(call.input, settings) : undefined;
  const verdict = modeVerdict(
    mode,
    // A page fetch changes nothing here and keeps its own per-domain asking in every mode: plan mode explores the web too.
    {
      tool: call.name,
      readOnly: readOnly || web !== undefined,
      protectedReason,
      ...(command !== undefined ? { command } : {}),
      ...(sandbox ? { sandbox } : {}),
    },
    web?.verdict ?? approvalVerdict(call.name, readOnly, settings, protectedReason, owner),
  );
  if (verdict.kind === 'refuse') return unrun(verdict.reason);
  let approved: ApprovedChange | undefined;
  if (verdict.kind === 'ask') {
    const described = deps.describeForApproval?.(call.name, call.input);
    // A call its tool would refuse anyway (a patch that does not parse, a path with a hidden character, an
    // edit whose text is not in the file) is answered without asking: nobody should be asked to approve what
    // cannot be shown for what it is.
    if (described?.problem !== undefined) return unrun(described.problem);
    const planned = await deps.tools.propose?.(call);
    if (planned && !planned.ok) return unrun(planned.message);
    const proposal = planned?.plan;
    // The change worked out on the files as they are: a diff with context, in place of the call's fragments.
    const change = proposal ? { ...(described ? withoutPreview(described) : {}), diffs: proposalDiffs(proposal) } : described;
    // What a command may touch that its turn's snapshot will not keep, said before it is allowed.
    const notKept = described?.command !== undefined ? await deps.commandNotKept?.(described.command) : undefined;
    const kept = change && notKept !== undefined ? { ...change, notKept } : change;
    const detail = kept ? { ...kept, allowance: web?.allowance ?? allowanceNoun(call.name) } : undefined;
    const shown = { ...(detail ? { detail } : {}), ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}) };
    deps.emit({ type: 'approval_requested', callId: call.callId, tool: call.name, summary, ...shown });
    let decision: ApprovalDecision;
    try {
      decision = await deps.approver.request(
        {
          callId: call.callId,
          tool: call.name,
          input: call.input,
          summary,
          ...shown,
          ...(deps.agent !== undefined ? { agent: deps.agent } : {}),
          ...(owner ? { alwaysKey: owner.alwaysKey } : web?.alwaysKey ? { alwaysKey: web.alwaysKey } : {}),
          ...(proposal ? { proposal } : {}),
        },
        signal,
      );
    } catch {
      decision = { kind: 'deny' as const, ...(signal.aborted ? { reason: 'cancelled' } : {}) };
    }
    if (signal.aborted) return unrun('Cancelled by the user before it ran.');
    if (decision.kind === 'deny') return unrun(denialMessage(call.name, decision.reason));
    // What was approved is what is written: the plan shown, as the user left it in review.
    if (proposal) approved = { plan: proposal, ...(decision.revised ? { revised: decision.revised } : {}) };
  }
  // Streamed as it comes so a long command is visible while it runs; the ledger has redacted each chunk.
  // Timed from here, after any approval, so the chat's duration is the tool's and not the user's wait.
  const started = performance.now();
  const result = await deps.tools.execute(call, {
    signal,
    onOutput: (text) => deps.emit({ type: 'tool_output', callId: call.callId, text }),
    ...(approved ? { approved } : {}),
  });
  // The ledger times the tool itself, and stores that figure for a reload to show the same; an executor
  // that does not is timed here.
  return { result, durationMs: result.durationMs ?? performance.now() - started };
}

function commandOf(input: unknown): string | undefined {
  const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
  return typeof command === 'string' ? command : undefined;
}

/** The detail without its input-only preview (the proposal's diffs say the same, with context and line numbers). */
function withoutPreview(detail: ApprovalDetail): ApprovalDetail {
  const { preview: _preview, ...rest } = detail;
  return rest;
}
