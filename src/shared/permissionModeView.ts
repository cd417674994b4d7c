/**
 * The permission mode in the chat and the editor (issue 32 §1): the control by the input (Shift+Tab cycles),
 * the status bar item, the palette's list, and "Start it" under a plan proposed in plan mode. The host owns the
 * mode (`cairn.permissionMode`, user settings only; `host/permissionModeControl.ts`); the webview shows what the
 * host sends and asks for a change. Which modes exist is core's (`core/agent/permissionModeNames.ts`); how they
 * are named and cycled is here.
 */
import type { PermissionMode } from '../core/agent/permissionModeNames';

export type { PermissionMode } from '../core/agent/permissionModeNames';

/** The order Shift+Tab, the control and the palette go through (as Claude Code's: default, accept edits, plan, then auto). */
export const PERMISSION_MODE_CYCLE: readonly PermissionMode[] = ['ask', 'acceptEdits', 'plan', 'auto'];

/** The mode after `mode` in the cycle. */
export function nextPermissionMode(mode: PermissionMode): PermissionMode {
  return PERMISSION_MODE_CYCLE[(PERMISSION_MODE_CYCLE.indexOf(mode) + 1) % PERMISSION_MODE_CYCLE.length]!;
}

export function isPermissionModeName(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODE_CYCLE as readonly string[]).includes(value);
}

/** The mode's name as the chat, the status bar and the palette show it. */
export const PERMISSION_MODE_LABELS: Readonly<Record<PermissionMode, string>> = {
  ask: 'Ask',
  plan: 'Plan',
  acceptEdits: 'Accept edits',
  auto: 'Auto',
};

/** What each mode lets Cairn do, in one line (the control's and the status bar's tooltip, the palette's list). */
export const PERMISSION_MODE_DESCRIPTIONS: Readonly<Record<PermissionMode, string>> = {
  ask: 'asks before every edit and command',
  plan: 'explores and proposes a plan; edits and commands are refused',
  acceptEdits: 'edits the workspace without asking; commands and protected paths ask',
  auto: 'edits and runs sandboxed commands without asking; what the sandbox cannot hold asks',
};

/** The modes "Start it" may switch to before sending the go-ahead (never auto: starting a plan widens by one step). */
export type PlanStartMode = 'ask' | 'acceptEdits';

export const PLAN_START_MODES: readonly PlanStartMode[] = ['ask', 'acceptEdits'];

/** The go-ahead "Start it" sends as the user's message once the mode is switched. */
export const PLAN_GO_AHEAD = 'Go ahead with the plan.';
