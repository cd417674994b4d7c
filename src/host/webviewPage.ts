/** Sets up one webview (chat or report): scripts on, local resources only, the strict-CSP page. */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { renderWebviewHtml } from '../shared/webviewHtml';
import type { WebviewKind } from '../shared/protocol';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    // Only the bundle and the stylesheet: the webview never loads anything from the workspace.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/**
 * `renderWebviewHtml` takes one origin, but VS Code (and code-server) give `webview.cspSource` as several
 * tokens, e.g. `'self' https://*.vscode-cdn.net`. The resources `asWebviewUri` makes are served from the
 * https origin, so that one token is enough; `'self'` (the webview's own document origin) is not needed.
 */
export function resourceOrigin(cspSource: string): string {
  const tokens = cspSource.split(/\s+/).filter((t) => t !== '' && !t.startsWith("'"));
  return tokens.find((t) => t.startsWith('https:')) ?? tokens[0] ?? cspSource;
}

export function setWebviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, view: WebviewKind): void {
  webview.options = webviewOptions(extensionUri);
  webview.html = renderWebviewHtml({
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css')).toString(),
    cspSource: resourceOrigin(webview.cspSource),
    nonce: randomBytes(16).toString('base64'),
    view,
  });
}
