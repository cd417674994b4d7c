/**
 * `cairn.budget.turn` and `cairn.budget.session`: the spending caps in US$ (issue 32 §3,
 * `core/spending/spendingCap.ts`). Read from the user's settings only (`USER_ONLY_SETTINGS`): a repository
 * must not raise what a turn may spend, nor (through `cairn.prices`, user-only for the same reason) lower the
 * prices the caps are counted in. Unset, null or 0: no cap.
 */
import type { SpendingCaps } from '../core/spending/spendingCap';

export type { SpendingCaps } from '../core/spending/spendingCap';

export const SPENDING_CAP_SETTINGS = ['budget.turn', 'budget.session'] as const;

export function spendingCapsOf(get: (key: string) => unknown, problems: string[]): SpendingCaps {
  const read = (key: (typeof SPENDING_CAP_SETTINGS)[number]): number | undefined => {
    const value = get(key);
    if (value === undefined || value === null || value === 0) return undefined;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
    problems.push(`cairn.${key} must be a number of US dollars above 0 (0 or unset: no cap); there is no cap until it is fixed.`);
    return undefined;
  };
  const turn = read('budget.turn');
  const session = read('budget.session');
  return { ...(turn !== undefined ? { turn } : {}), ...(session !== undefined ? { session } : {}) };
}
