import type { SlashCommandView } from '../../src/shared/protocol';

/**
 * The slash commands matching what is typed, above the input. A listbox the input controls
 * (`aria-activedescendant`): focus stays in the input; arrows move, Tab or Enter picks, Escape closes.
 */
export function SlashMenu({
  matches,
  active,
  onPick,
}: {
  matches: readonly SlashCommandView[];
  active: number;
  onPick: (command: SlashCommandView) => void;
}) {
  if (matches.length === 0) return null;
  return (
    <ul class="slash-menu" id="slash-menu" role="listbox" aria-label="Slash commands">
      {matches.map((command, i) => (
        <li
          key={command.name}
          id={`slash-option-${i}`}
          role="option"
          aria-selected={i === active}
          class={`slash-option ${i === active ? 'active' : ''}`}
          // mousedown, not click: the input keeps its focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(command);
          }}
        >
          <span class="slash-name">/{command.name}</span>
          {command.argumentHint && <span class="slash-hint quiet"> {command.argumentHint}</span>}
          <span class="slash-description quiet"> {command.description}</span>
        </li>
      ))}
    </ul>
  );
}
