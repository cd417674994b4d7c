import {
  PERMISSION_MODE_CYCLE,
  PERMISSION_MODE_DESCRIPTIONS,
  PERMISSION_MODE_LABELS,
  isPermissionModeName,
} from '../../src/shared/protocol';
import type { ChatStore } from './chatStore';

/**
 * The permission mode by the input (issue 32 §1): a native select (keyboard and screen readers work as
 * everywhere else); Shift+Tab in the input cycles it. The host owns the mode: the choice goes to the user's
 * settings and comes back as what the control shows.
 */
export function PermissionModeControl({ store }: { store: ChatStore }) {
  const mode = store.permissionMode.value;
  return (
    <select
      class={`permission-mode permission-mode-${mode}`}
      aria-label="Permission mode"
      title={`${PERMISSION_MODE_LABELS[mode]}: ${PERMISSION_MODE_DESCRIPTIONS[mode]} (Shift+Tab in the input cycles the modes)`}
      value={mode}
      onChange={(e) => {
        const value = (e.currentTarget as HTMLSelectElement).value;
        if (isPermissionModeName(value)) store.setPermissionMode(value);
      }}
    >
      {PERMISSION_MODE_CYCLE.map((m) => (
        <option key={m} value={m}>
          {PERMISSION_MODE_LABELS[m]}
        </option>
      ))}
    </select>
  );
}

/**
 * "Start it" under a plan proposed in plan mode: switches to ask (each edit and command asks) or accept edits,
 * then sends the go-ahead, so the model reads the new mode and the go-ahead in one message.
 */
export function PlanStart({ store }: { store: ChatStore }) {
  if (!store.planReady.value) return null;
  return (
    <section class="plan-start" role="region" aria-label="Plan ready">
      <span class="plan-start-text">Plan mode: Cairn proposed a plan. Start it?</span>
      <button
        type="button"
        class="button primary"
        onClick={() => store.startPlan('ask')}
        title="Switch to ask mode and tell Cairn to go ahead"
      >
        Start it
      </button>
      <button
        type="button"
        class="button secondary"
        onClick={() => store.startPlan('acceptEdits')}
        title="Switch to accept-edits mode (edits run without asking) and tell Cairn to go ahead"
      >
        Start it, accepting edits
      </button>
    </section>
  );
}
