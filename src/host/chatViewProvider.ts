/** The chat as a webview view in the Cairn activity-bar container. */
import type * as vscode from 'vscode';
import type { SessionController } from './sessionController';
import { setWebviewPage } from './webviewPage';

export const CHAT_VIEW_ID = 'cairn.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: SessionController,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const sink = { post: (message: unknown) => view.webview.postMessage(message) };
    const registration = this.controller.addView(sink, 'chat');
    const listener = view.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(sink, raw));
    view.onDidDispose(() => {
      registration.dispose();
      listener.dispose();
      if (this.view === view) this.view = undefined;
    });
    setWebviewPage(view.webview, this.extensionUri, 'chat');
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }
}
