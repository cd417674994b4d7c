/** The chat as a webview view in the Cairn activity-bar container. */
import type * as vscode from 'vscode';
import type { SessionController } from './sessionController';
import { setWebviewPage } from './webviewPage';

export const CHAT_VIEW_ID = 'cairn.chat';

/** A badge that shows no count (VS Code draws a number badge only above 0). */
export const NO_COUNT: vscode.ViewBadge = Object.freeze({ value: 0, tooltip: '' });

export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private badge: vscode.ViewBadge | undefined;
  /** The view became visible (the attention notifier clears its badge). */
  onVisible: (() => void) | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: SessionController,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const sink = { post: (message: unknown) => view.webview.postMessage(message) };
    const registration = this.controller.addView(sink, 'chat');
    const listener = view.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(sink, raw));
    if (this.badge) view.badge = this.badge;
    const visibility = view.onDidChangeVisibility(() => {
      if (view.visible) this.onVisible?.();
    });
    view.onDidDispose(() => {
      visibility.dispose();
      registration.dispose();
      listener.dispose();
      if (this.view === view) this.view = undefined;
    });
    setWebviewPage(view.webview, this.extensionUri, 'chat');
  }

  /**
   * The count on the Cairn view (kept for a view resolved later). Cleared with a count of 0, which shows
   * nothing: VS Code's webview views (1.100 at least) leave the activity bar's count up when the badge is set
   * to undefined (its tree views clear it; microsoft/vscode#331019 fixes webviews).
   */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = badge ?? NO_COUNT;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }
}
