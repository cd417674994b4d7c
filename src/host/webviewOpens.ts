import type { Workspace } from '../core/ports';
import type { SessionJournal } from '../core/journal/node/sessionJournal';
import type { WebviewNotification } from '../shared/protocol';
import type { EditorActions, HostLog } from './hostPorts';

/** The webview's requests to show something in the editor: a stored result, a file, a link. */
export type OpenRequest = Extract<WebviewNotification, { type: 'openResult' | 'copyResult' | 'openFile' | 'openLink' | 'codeBlock' }>;

export interface OpenDeps {
  readonly journal: Pick<SessionJournal, 'readResult'>;
  readonly editor: EditorActions;
  /** Paths from the webview are resolved (and escapes refused) here before anything opens them. */
  readonly workspace: Pick<Workspace, 'resolve'>;
  readonly log: HostLog;
}

/** Opens or copies what the webview asked for; an id the session does not have is logged, nothing else. */
export async function openFromWebview(request: OpenRequest, deps: OpenDeps): Promise<void> {
  switch (request.type) {
    case 'openResult':
    case 'copyResult': {
      const stored = await deps.journal.readResult(request.resultId);
      if (!stored) {
        deps.log.warn(`The webview asked for ${request.resultId}, which this session does not have.`);
        return;
      }
      if (request.type === 'copyResult') await deps.editor.copyText(stored.body);
      else await deps.editor.openResult(stored);
      return;
    }
    case 'openFile': {
      // The workspace refuses paths that leave it: the webview cannot open arbitrary files.
      const resolved = await deps.workspace.resolve(request.path);
      await deps.editor.openFile(resolved.absolute, request.line);
      return;
    }
    case 'openLink':
      await deps.editor.openExternal(request.url);
      return;
    case 'codeBlock':
      // The user's click: the text goes into their editor unsaved (or the clipboard); nothing is written to disk.
      if (request.action === 'copy') await deps.editor.copyText(request.code);
      else if (request.action === 'newFile') await deps.editor.openUntitled(request.code, request.language);
      else if (!(await deps.editor.insertAtCursor(request.code)))
        deps.log.warn('Insert at cursor: no editor is open; open a file and place the cursor, then try again.');
      return;
  }
}
