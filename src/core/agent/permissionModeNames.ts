/**
 * The permission modes (issue 32 §1) as values, apart from what they do (`permissionMode.ts`), so the approval
 * types can name them without importing the gate's logic. How the chat shows and cycles them is the chat's
 * (`src/shared/permissionModeView.ts`).
 */
export type PermissionMode = 'ask' | 'plan' | 'acceptEdits' | 'auto';

/** Every mode, the default first. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'plan', 'acceptEdits', 'auto'];

export const DEFAULT_PERMISSION_MODE: PermissionMode = 'ask';

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}
