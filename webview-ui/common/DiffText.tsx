import type { ComponentType } from 'preact';

export type DiffLineKind = 'add' | 'del' | 'hunk' | 'file' | 'context';

/** What a line of a diff is: an added or removed line, a hunk header, a file's header, or context. */
export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('*** ') || line.startsWith('[') || line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'context';
}

/**
 * Diff lines, each coloured by what it is (theme colours in pairs: the diff editor's inserted and removed
 * backgrounds under the panel's own foreground). The `+` and `-` stay in the text, so the change reads
 * the same without colour and to a screen reader. `Line` renders a line's text (recall links, or hidden
 * characters made visible in an approval).
 */
export function DiffText({
  text,
  Line,
  label,
  class: className,
}: {
  text: string;
  Line: ComponentType<{ text: string }>;
  label?: string;
  class?: string;
}) {
  return (
    <pre class={`diff-text ${className ?? ''}`} aria-label={label}>
      {text.split('\n').map((line, i) => (
        <span key={i} class={`diff-line diff-${diffLineKind(line)}`}>
          <Line text={line} />
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
