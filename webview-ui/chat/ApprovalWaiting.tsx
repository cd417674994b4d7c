import { useEffect } from 'preact/hooks';
import type { TurnView } from '../../src/shared/protocol';
import { APPROVAL_SHORTCUT_LABEL } from './announcements';
import { waitsForApproval } from '../../src/shared/subagentTranscript';

/** The waiting approval's prompt in the page, if one waits. */
function waitingPrompt(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.tool.status-awaiting-approval .approval');
}

/**
 * Goes to the waiting prompt on the user's own move (Alt+A, "Go to it"): its first answer takes focus, so
 * Enter answers it (issue 34, item 12: Enter did nothing). The prompt's own focus when it appears stays on
 * the prompt, never a button: an Enter meant for something else must not approve a command.
 */
function goToPrompt(prompt: HTMLElement): void {
  prompt.scrollIntoView({ block: 'nearest' });
  const first = prompt.querySelector<HTMLButtonElement>('button:not([disabled])');
  (first ?? prompt).focus();
}

function isWaiting(turns: readonly TurnView[]): boolean {
  const last = turns.at(-1);
  // A child's call waits in its block, inside the turn's `task` line.
  return !!last && waitsForApproval(last.items);
}

/**
 * A waiting approval is the one thing that blocks the agent. The prompt takes focus when nobody is typing;
 * when someone is, this line above the input says so, and Alt+A (from anywhere in the chat) goes to it.
 */
export function ApprovalWaiting({ turns }: { turns: readonly TurnView[] }) {
  const waiting = isWaiting(turns);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== 'KeyA') return;
      const prompt = waitingPrompt();
      if (!prompt) return;
      event.preventDefault();
      goToPrompt(prompt);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (!waiting) return null;
  return (
    <div class="approval-waiting">
      <span>Cairn is waiting for your approval.</span>
      <button
        type="button"
        class="text-button"
        aria-keyshortcuts="Alt+A"
        onClick={() => {
          const prompt = waitingPrompt();
          if (prompt) goToPrompt(prompt);
        }}
      >
        Go to it ({APPROVAL_SHORTCUT_LABEL})
      </button>
    </div>
  );
}
