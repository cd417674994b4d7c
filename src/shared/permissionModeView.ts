/**
 * The permission mode in the chat (issue 32 §1): the control by the input (Shift+Tab cycles), and "Start it"
 * under a plan proposed in plan mode. The host owns the mode (`cairn.permissionMode`, user settings only;
 * `host/permissionModeControl.ts`); the webview shows what the host sends and asks for a change.
 */
export type { PermissionMode } from '../core/agent/permissionModeNames';
export {
  PERMISSION_MODES,
  PERMISSION_MODE_LABELS,
  PERMISSION_MODE_DESCRIPTIONS,
  nextPermissionMode,
  isPermissionMode,
} from '../core/agent/permissionModeNames';

/** The modes "Start it" may switch to before sending the go-ahead. */
export type PlanStartMode = 'ask' | 'acceptEdits';

export const PLAN_START_MODES: readonly PlanStartMode[] = ['ask', 'acceptEdits'];

/** The go-ahead "Start it" sends as the user's message once the mode is switched. */
export const PLAN_GO_AHEAD = 'Go ahead with the plan.';
