import type { FileChangeView, TurnChangesView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';

const CHANGE_TEXT: Record<FileChangeView['change'], string> = {
  created: 'created',
  deleted: 'deleted',
  modified: '',
  not_restorable: 'not restorable',
};

/** The files a turn changed, at its end: each opens in the diff editor (before the turn ↔ after it). */
export function TurnChanges({ changes }: { changes: TurnChangesView }) {
  const bridge = useBridge();
  const added = changes.files.reduce((sum, f) => sum + (f.added ?? 0), 0);
  const removed = changes.files.reduce((sum, f) => sum + (f.removed ?? 0), 0);
  const count = changes.files.length;
  return (
    <details class="turn-changes" open={count <= 5}>
      <summary>
        {count} file{count === 1 ? '' : 's'} changed <span class="lines-added">+{added}</span> <span class="lines-removed">−{removed}</span>
      </summary>
      <ul class="turn-changes-list">
        {changes.files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              class="text-button change-file"
              title={`Open the diff of ${file.path}`}
              onClick={() => bridge.notify({ type: 'openChange', checkpointId: changes.checkpointId, path: file.path })}
            >
              {file.path}
            </button>{' '}
            {file.added !== undefined && <span class="lines-added">+{file.added}</span>}{' '}
            {file.removed !== undefined && <span class="lines-removed">−{file.removed}</span>}{' '}
            {CHANGE_TEXT[file.change] && <span class="quiet">{CHANGE_TEXT[file.change]}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** On each user message: restore the files to before it (the host shows the preview first). */
export function RestoreFilesButton({ turn }: { turn: number }) {
  const bridge = useBridge();
  return (
    <button
      type="button"
      class="text-button restore-files"
      title="Restore files to before this message"
      aria-label="Restore files to before this message"
      onClick={() => bridge.notify({ type: 'restoreToTurn', turn })}
    >
      ↶ Restore files to before this message
    </button>
  );
}
