import type { ProposedFileDiff } from '../../src/shared/protocol';
import { type diffLineKind } from '../common/DiffText';
import { VisibleText } from '../common/VisibleText';

const CHANGE_TEXT: Record<ProposedFileDiff['change'], string> = {
  create: 'new file',
  update: 'changed',
  delete: 'deleted',
};

interface NumberedLine {
  readonly text: string;
  readonly kind: ReturnType<typeof diffLineKind>;
  /** The line's number in the file as it is (absent: an added line, a hunk header). */
  readonly old?: number;
  /** Its number in the file as proposed (absent: a removed line, a hunk header). */
  readonly new?: number;
}

/** The hunks' lines with both line numbers, read off each `@@ -a,b +c,d @@` header. */
export function numberedLines(hunks: string): NumberedLine[] {
  let oldLine = 0;
  let newLine = 0;
  return hunks.split('\n').map((text): NumberedLine => {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      return { text, kind: 'hunk' };
    }
    if (text.startsWith('\\')) return { text, kind: 'context' };
    if (text.startsWith('+')) return { text, kind: 'add', new: newLine++ };
    if (text.startsWith('-')) return { text, kind: 'del', old: oldLine++ };
    return { text, kind: 'context', old: oldLine++, new: newLine++ };
  });
}

/**
 * A proposed change, file by file, as a diff with context and both line numbers (the file as it is on the left
 * number, as proposed on the right), each file with **Open in diff editor**: there the user drops a hunk (the
 * diff editor's revert arrow) or edits the proposal, and this diff follows what Allow will write.
 */
export function ProposedDiffs({
  diffs,
  revised,
  onOpen,
}: {
  diffs: readonly ProposedFileDiff[];
  /** The user changed the proposal in the diff editor: these diffs are their version. */
  revised: boolean;
  onOpen: (path: string) => void;
}) {
  return (
    <div class="proposed-diffs">
      {revised && (
        <p class="proposal-revised" role="status">
          You changed this proposal in the diff editor. Allow applies your version, shown here; Cairn is told exactly what was applied.
        </p>
      )}
      {diffs.map((diff) => (
        <section key={diff.path} class="proposed-file" aria-label={`Proposed change to ${diff.path}`}>
          <div class="proposed-file-header">
            <code class="proposed-path">
              {diff.movedFrom !== undefined && (
                <>
                  <VisibleText text={diff.movedFrom} />
                  {' → '}
                </>
              )}
              <VisibleText text={diff.path} />
            </code>
            <span class="quiet"> {diff.movedFrom !== undefined ? 'moved' : CHANGE_TEXT[diff.change]}</span>
            <button
              type="button"
              class="text-button proposed-open"
              title="Review it in VS Code's diff editor: drop a change with its revert arrow, or edit the proposal, before you allow it"
              onClick={() => onOpen(diff.path)}
            >
              Open in diff editor
            </button>
          </div>
          {diff.hunks === '' ? (
            <p class="quiet proposed-empty">{diff.change === 'delete' ? 'The file is removed.' : 'No line changes.'}</p>
          ) : (
            <table class="proposed-lines" aria-label={`Diff of ${diff.path}`}>
              <tbody>
                {numberedLines(diff.hunks).map((line, i) => (
                  <tr key={i} class={`diff-line diff-${line.kind}`}>
                    <td class="line-number" aria-hidden="true">
                      {line.old ?? ''}
                    </td>
                    <td class="line-number" aria-hidden="true">
                      {line.new ?? ''}
                    </td>
                    <td class="line-text">
                      <VisibleText text={line.text} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </div>
  );
}
