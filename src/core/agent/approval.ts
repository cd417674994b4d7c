/** Who may let a tool run: read-only tools run freely; commands and edits ask unless the user allowed them. */
import type { ChangePlan, RevisedTexts } from '../tools/changePlan';
import type { PermissionMode } from './permissionModeNames';

export type { ApprovedChange, RevisedTexts } from '../tools/changePlan';

export type ApprovalDecision =
  | { readonly kind: 'allow'; readonly revised?: RevisedTexts }
  | { readonly kind: 'allow_always'; readonly revised?: RevisedTexts }
  | { readonly kind: 'deny'; readonly reason?: string };

/** One file of a proposed change as the approval shows it: a diff with context and real line numbers. */
export interface ProposedFileDiff {
  /** The path as the call gave it. */
  readonly path: string;
  readonly change: 'create' | 'update' | 'delete';
  /** A patch's move: the path the file comes from (the diff's left side). */
  readonly movedFrom?: string;
  /** `@@ -a,b +c,d @@` hunks, three lines of context, joined by `\n`; '' when no line changes. */
  readonly hunks: string;
}

export interface ApprovalRequest {
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly summary: string;
  /** What the call will do, in full (the summary is one cut line). */
  readonly detail?: ApprovalDetail;
  /** Why this call asks even if the tool may run without asking (a protected path); shown in the prompt. */
  readonly reason?: string;
  /** The sub-agent whose call this is (its id, e.g. `general-2`); absent for the session's own agent. */
  readonly agent?: string;
  /**
   * Not "may this call run?" but "may Cairn go past this bound?" (`boundQuestion.ts`): the call is the one
   * that would pass it. Allow: continue (never remembered: "always" counts as once); deny: stop.
   */
  readonly bound?: BoundQuestion;
  /**
   * What "always" remembers, when not the tool's name: an MCP tool's `McpToolOwner.alwaysKey`, so the answer
   * holds for that server's tool only, never for another server that later gets the same tool name.
   */
  readonly alwaysKey?: string;
  /**
   * A writing call's change, worked out before asking (`ToolExecutor.propose`): every file's text before and
   * after, for the user to review (the editor's diff view) and revise before approving.
   */
  readonly proposal?: ChangePlan;
}

/**
 * A bound Cairn reached (the sub-agents one turn may start, the requests they may make; a spending cap
 * later), put to the user before going past it.
 */
export interface BoundQuestion {
  /** The setting that sets the bound, e.g. `cairn.subagents.perTurn`. */
  readonly setting: string;
  /** What was spent so far, and what continuing and stopping each do. */
  readonly text: string;
}

/** One path a call writes, as the tool that applies it reads the input. */
export interface ApprovalFile {
  readonly change: 'write' | 'edit' | 'add' | 'update' | 'delete';
  readonly path: string;
  /** A patch's `*** Move to:`: the file is written here and its old path removed. */
  readonly moveTo?: string;
}

/**
 * What the person approving a call is shown in full: a command's whole text, every path a write or a
 * patch touches (from the same parser that applies the patch), or why the input cannot run at all.
 * Hidden characters are left in; the chat shows each as `⟨U+XXXX⟩`.
 */
export interface ApprovalDetail {
  readonly command?: string;
  readonly files?: readonly ApprovalFile[];
  /** The change as diff lines (`@@`, `-`, `+`, ` `), from the input (approvalPreview.ts); the chat colours it. */
  readonly preview?: string;
  /** The change worked out on the files as they are (before asking): each file's diff with context and line numbers. */
  readonly diffs?: readonly ProposedFileDiff[];
  /** What "this session" or "always" would allow, in words ("edits": the whole edit family; "commands"; the tool). */
  readonly allowance?: string;
  /** An MCP tool: its server and the server's own name for it. */
  readonly mcp?: { readonly server: string; readonly tool: string };
  /** The call's arguments in full, as JSON (an MCP tool's: nothing else shows what it will do). */
  readonly arguments?: string;
  /**
   * The tool would refuse the input without changing anything (a patch that does not parse, a path with a
   * hidden character): the loop answers with this and does not ask.
   */
  readonly problem?: string;
  /**
   * A command: what it may touch that its checkpoint will not keep (outside the workspace, over 5 MB,
   * ignored, or a folder past the snapshot's bounds), said before it is approved (issue 34, item 5).
   */
  readonly notKept?: string;
}

/** The user's side of an approval: the chat panel's inline prompt, or a policy in the headless runner. */
export interface Approver {
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** Whose an MCP tool is, as approvals see it (from the session's MCP tools: `McpTools.owner`). */
export interface McpToolOwner {
  /** Only a server of the user's own (`cairn.mcp.servers`) is allowed by name in `cairn.approvals`. */
  readonly scope: 'workspace' | 'user';
  /** Its server's tool prefix (`mcp__PREFIX__*` in `cairn.approvals`), unique among the session's servers. */
  readonly prefix: string;
  /** What "always allow" is remembered under: the server's identity (where and what it is defined as) and the tool. */
  readonly alwaysKey: string;
}

export interface ApprovalSettings {
  /**
   * Tools the user allowed to run without asking: names from the user's `cairn.approvals` (an MCP tool's
   * `mcp__PREFIX__TOOL` or `mcp__PREFIX__*`: the user's own servers only) and "always" answers (an MCP tool's
   * by its `alwaysKey`).
   */
  readonly alwaysAllow: ReadonlySet<string>;
  /** An untrusted workspace may be read but never written or run in: no approval can change that. */
  readonly workspaceTrusted: boolean;
  /** The permission mode in force (`cairn.permissionMode`; `permissionMode.ts`); absent: `ask`. */
  readonly mode?: PermissionMode;
  /** `cairn.webFetch.refuseInUntrustedWorkspace`: in an untrusted workspace `web_fetch` is refused instead of asking. */
  readonly refuseWebFetchWhenUntrusted?: boolean;
}

export type ApprovalVerdict =
  { readonly kind: 'run' } | { readonly kind: 'ask'; readonly reason?: string } | { readonly kind: 'refuse'; readonly reason: string };

/**
 * `protectedReason` (from `protectedWriteReason`) names a protected path the call writes: such a call
 * asks every time, whatever the settings or an earlier "always" say, and is refused when untrusted.
 * `mcp` is whose the tool is when it is an MCP server's.
 */
export function approvalVerdict(
  tool: string,
  readOnly: boolean,
  settings: ApprovalSettings,
  protectedReason?: string,
  mcp?: McpToolOwner,
): ApprovalVerdict {
  if (readOnly) return { kind: 'run' };
  if (!settings.workspaceTrusted) {
    const why = protectedReason ? ` (It ${protectedReason}.)` : '';
    return {
      kind: 'refuse',
      reason: `The workspace is not trusted, so Cairn may read it but not run "${tool}".${why} The user can trust the workspace (Workspaces: Manage Workspace Trust) to allow edits and commands.`,
    };
  }
  if (protectedReason) return { kind: 'ask', reason: protectedReason };
  if (alwaysAllowed(tool, settings.alwaysAllow, mcp)) return { kind: 'run' };
  return { kind: 'ask' };
}

/**
 * The tools that change files. One allowance covers them all ("edits"): the model picks whichever fits a change,
 * so allowing `edit` alone would still ask for the same change made with `write` or `apply_patch`.
 */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['edit', 'multiedit', 'write', 'apply_patch']);

/** The key of the edit family's allowance (never a tool's name, so no setting can spell it). */
export const EDITS_ALLOWANCE = 'edits';

/** What an allowance given for `tool` is kept under: the edit family as one, else the tool's name. */
export function allowanceKeyOf(tool: string): string {
  return EDIT_TOOLS.has(tool) ? EDITS_ALLOWANCE : tool;
}

/** What an allowance for `tool` allows, in the prompt's words. */
export function allowanceNoun(tool: string): string {
  if (EDIT_TOOLS.has(tool)) return 'edits';
  if (tool === 'bash') return 'commands';
  return tool;
}

/**
 * Allowed by name (an edit tool by its family's allowance too); an MCP tool by its "always" key, or, when its server is the user's own, by its name or its
 * server's `mcp__PREFIX__*` in `cairn.approvals`. A name is never parsed for a server: an `mcp__` name that
 * belongs to no server of the session asks.
 */
function alwaysAllowed(tool: string, allow: ReadonlySet<string>, mcp: McpToolOwner | undefined): boolean {
  if (!mcp) return !tool.startsWith('mcp__') && (allow.has(tool) || allow.has(allowanceKeyOf(tool)));
  if (allow.has(mcp.alwaysKey)) return true;
  return mcp.scope === 'user' && (allow.has(tool) || allow.has(`mcp__${mcp.prefix}__*`));
}

/**
 * Allows every call: the headless runner, where no person is there to ask. A bound is never passed on
 * nobody's word: its question is answered "stop", so a run without a person stays within the settings.
 */
export const autoApprover: Approver = {
  request: async (request) =>
    request.bound !== undefined ? { kind: 'deny', reason: 'no one to ask in a headless run' } : { kind: 'allow' },
};

export function denialMessage(tool: string, reason: string | undefined): string {
  const why = reason && reason.trim() ? ` Their reason: ${reason.trim()}` : '';
  return `The user declined to run ${tool}.${why} Do not retry the same call; ask the user or take another approach.`;
}
