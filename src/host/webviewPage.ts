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

export function setWebviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, view: WebviewKind): void {
  webview.options = webviewOptions(extensionUri);
  webview.html = renderWebviewHtml({
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview.css')).toString(),
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    view,
  });
}
