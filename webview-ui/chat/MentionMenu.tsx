/**
 * The workspace files matching the `@` mention being typed, above the input. Like the slash menu, a
 * listbox the input controls: arrows move, Tab or Enter picks, Escape closes; focus stays in the input.
 */
export function MentionMenu({ paths, active, onPick }: { paths: readonly string[]; active: number; onPick: (path: string) => void }) {
  if (paths.length === 0) return null;
  return (
    <ul class="slash-menu mention-menu" id="mention-menu" role="listbox" aria-label="Files to mention">
      {paths.map((path, i) => (
        <li
          key={path}
          id={`mention-option-${i}`}
          role="option"
          aria-selected={i === active}
          class={`slash-option ${i === active ? 'active' : ''}`}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(path);
          }}
        >
          <span class="slash-name">@{path}</span>
        </li>
      ))}
    </ul>
  );
}
