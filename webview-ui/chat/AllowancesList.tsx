import { useSignal } from '@preact/signals';
import type { AllowanceView } from '../../src/shared/protocol';

const SCOPE_TEXT: Record<AllowanceView['scope'], string> = {
  session: 'this session',
  user: 'always, for you in every workspace',
  settings: 'your settings (cairn.approvals)',
};

/**
 * What runs without asking (issue 34, item 9), behind a toggle above the input: each allowance with how long it
 * lasts and Revoke. Protected paths still ask and an untrusted workspace still refuses, whatever is listed.
 */
export function AllowancesList({ allowances, onRevoke }: { allowances: readonly AllowanceView[]; onRevoke: (id: string) => void }) {
  const open = useSignal(false);
  if (allowances.length === 0) return null;
  return (
    <section class="allowances-list" aria-label="Allowed without asking">
      <button type="button" class="skills-toggle" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
        Allowed without asking ({allowances.length})
      </button>
      {open.value && (
        <ul>
          {allowances.map((allowance) => (
            <li key={allowance.id}>
              <span>{allowance.label}</span> <span class="quiet">— {SCOPE_TEXT[allowance.scope]}</span>{' '}
              <button
                type="button"
                class="text-button"
                aria-label={`Revoke ${allowance.label} (${SCOPE_TEXT[allowance.scope]})`}
                onClick={() => onRevoke(allowance.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
