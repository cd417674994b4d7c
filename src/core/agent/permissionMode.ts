/**
 * The permission modes (issue 32 §1): how much the agent may do without asking the user. The mode only
 * changes what happens when a call runs (`modeVerdict`, from the approval gate) and what the next user
 * message tells the model (`PermissionModeEnvelope`); the tool definitions and the system prompt are the
 * same in every mode, so switching never changes the cached prefix.
 *
 * - `ask`: every edit and command asks (or runs by the user's own allowances), as before the modes.
 * - `plan`: the model explores and proposes; every call that is not read-only is refused without asking,
 *   with a result that says why and how the user leaves plan mode (MCP tools included: a plan has no effects).
 * - `acceptEdits`: edits inside the workspace run without asking; commands and protected paths ask.
 * - `auto`: edits, and commands the sandbox holds, run without asking; a command the sandbox cannot hold
 *   (`commandReach.ts`: it needs the network or writes outside, or there is no sandbox here) asks.
 *
 * In every mode an untrusted workspace refuses edits and commands, and a write to a protected path asks.
 */
import type { CommandSandboxState } from '../ports';
import type { ConversationEntry } from '../conversation/conversation';
import { isSyntheticBlock } from '../conversation/conversation';
import type { TextBlock } from '../model/types';
import { EDIT_TOOLS, type ApprovalVerdict } from './approval';
import { commandBeyondSandbox } from './commandReach';
import type { MessageAttachment } from './ports';
import { DEFAULT_PERMISSION_MODE, isPermissionMode, type PermissionMode } from './permissionModeNames';

export { DEFAULT_PERMISSION_MODE, isPermissionMode, PERMISSION_MODES, type PermissionMode } from './permissionModeNames';

/** How the user leaves plan mode, said in every plan refusal and in the envelope. */
const LEAVE_PLAN =
  'The user leaves plan mode with the mode control by the chat input (Shift+Tab cycles), the command "Cairn: Set Permission Mode", or "Start it" on your plan.';

/** The answer to a call plan mode refuses. */
export function planRefusal(tool: string): string {
  return `Not run: the user has Cairn in plan mode, where "${tool}" and every other edit or command is refused without asking. Explore with the read-only tools and present your plan; do not retry this call. ${LEAVE_PLAN}`;
}

/** What a call is, as the mode judges it. */
export interface ModeCall {
  readonly tool: string;
  readonly readOnly: boolean;
  /** The call writes a protected path (`protectedPaths.ts`): it asks in every mode. */
  readonly protectedReason: string | undefined;
  /** A command's text (`bash`). */
  readonly command?: string;
  /** What confines commands here; absent: no sandbox (a workspace that runs no real commands). */
  readonly sandbox?: CommandSandboxState;
}

/**
 * The verdict for a call in `mode`, from the verdict of the user's settings (`approvalVerdict`: read-only
 * runs, an untrusted workspace refuses, a protected path asks, an allowance runs). A mode only narrows a
 * refusal or an ask that protects something (a protected path, an untrusted workspace): those hold in
 * every mode. `plan` narrows everything else to a refusal; `acceptEdits` and `auto` widen an ask to a run
 * only for what they name.
 */
export function modeVerdict(mode: PermissionMode, call: ModeCall, settings: ApprovalVerdict): ApprovalVerdict {
  if (call.readOnly || settings.kind === 'refuse') return settings;
  if (mode === 'plan') return { kind: 'refuse', reason: planRefusal(call.tool) };
  if (settings.kind === 'run' || call.protectedReason !== undefined) return settings;
  if (mode === 'ask') return settings;
  if (EDIT_TOOLS.has(call.tool)) return { kind: 'run' };
  if (mode === 'auto' && call.tool === 'bash' && call.command !== undefined) {
    const beyond = commandBeyondSandbox(call.command, call.sandbox);
    return beyond === undefined ? { kind: 'run' } : { kind: 'ask', reason: beyond };
  }
  return settings;
}

/** The envelope's first line: how the model, and `lastToldMode`, know it. */
const OPENING = '<cairn-permission-mode mode="';

const ENVELOPE_TEXT: Readonly<Record<PermissionMode, string>> = {
  ask: 'The user switched Cairn back to ask mode: edits and commands run once the user approves each (or allowed it before).',
  plan: `The user switched Cairn to plan mode. Explore with the read-only tools and present a plan for the user to approve; do not edit files or run commands: such calls are refused without asking. ${LEAVE_PLAN}`,
  acceptEdits:
    'The user switched Cairn to accept-edits mode: edits inside the workspace run without asking; commands and protected paths (.git, .vscode, .cairn, AGENTS.md, CLAUDE.md) still ask the user.',
  auto: 'The user switched Cairn to auto mode: edits, and commands the sandbox holds (the workspace writable, no network unless the user allowed it), run without asking; a command that needs the network or writes outside the workspace asks the user.',
};

/** The envelope that tells the model the mode in force. */
export function permissionModeEnvelope(mode: PermissionMode): string {
  return `${OPENING}${mode}">\n${ENVELOPE_TEXT[mode]}\n</cairn-permission-mode>`;
}

/** The mode the model was last told in these messages (derived from the history, never kept on the side). */
export function lastToldMode(entries: readonly ConversationEntry[]): PermissionMode | undefined {
  for (let e = entries.length - 1; e >= 0; e--) {
    const entry = entries[e]!;
    if (entry.message.role !== 'user') continue;
    const content = entry.message.content;
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b]!;
      if (block.type !== 'text' || !block.text.startsWith(OPENING) || !isSyntheticBlock(entry, b)) continue;
      const mode = block.text.slice(OPENING.length, block.text.indexOf('"', OPENING.length));
      if (isPermissionMode(mode)) return mode;
    }
  }
  return undefined;
}

/**
 * Puts the mode in force at the start of the next user message when it is not what the model was last told
 * in the current generation's messages (nothing told counts as `ask`, the mode the prompt describes): a
 * switch costs one short block, and a compaction or a rewind that dropped the envelope makes it due again.
 */
export class PermissionModeEnvelope implements MessageAttachment {
  constructor(private readonly mode: () => PermissionMode) {}

  async blocksFor(_userText: string, entries: readonly ConversationEntry[]): Promise<readonly TextBlock[]> {
    const mode = this.mode();
    if (mode === (lastToldMode(entries) ?? DEFAULT_PERMISSION_MODE)) return [];
    return [{ type: 'text', text: permissionModeEnvelope(mode) }];
  }
}
