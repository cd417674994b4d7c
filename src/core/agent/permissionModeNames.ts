/**
 * The permission modes' names, order and words (issue 32 §1), apart from what they do (`permissionMode.ts`),
 * so the chat's control can show them without the approval logic.
 */
export type PermissionMode = 'ask' | 'plan' | 'acceptEdits' | 'auto';

/** The order Shift+Tab and the mode control cycle through (as Claude Code's: default, accept edits, plan, then auto). */
export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'acceptEdits', 'plan', 'auto'];

export const DEFAULT_PERMISSION_MODE: PermissionMode = 'ask';

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** The mode after `mode` in the cycle. */
export function nextPermissionMode(mode: PermissionMode): PermissionMode {
  return PERMISSION_MODES[(PERMISSION_MODES.indexOf(mode) + 1) % PERMISSION_MODES.length]!;
}

/** The mode's name as the chat, the status bar and the palette show it. */
export const PERMISSION_MODE_LABELS: Readonly<Record<PermissionMode, string>> = {
  ask: 'Ask',
  plan: 'Plan',
  acceptEdits: 'Accept edits',
  auto: 'Auto',
};

/** What each mode lets Cairn do, in one line (the palette's pick list, the status bar's tooltip). */
export const PERMISSION_MODE_DESCRIPTIONS: Readonly<Record<PermissionMode, string>> = {
  ask: 'asks before every edit and command',
  plan: 'explores and proposes a plan; edits and commands are refused',
  acceptEdits: 'edits the workspace without asking; commands and protected paths ask',
  auto: 'edits and runs sandboxed commands without asking; what the sandbox cannot hold asks',
};

