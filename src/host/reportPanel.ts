/** The context report as an editor webview panel that can sit beside the code; one at a time. */
import * as vscode from 'vscode';
import type { SessionController } from './sessionController';
import { setWebviewPage } from './webviewPage';

export const REPORT_PANEL_TYPE = 'cairn.report';

export class ReportPanel {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: SessionController,
  ) {}

  show(): void {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside);
      return;
    }
    const panel = vscode.window.createWebviewPanel(REPORT_PANEL_TYPE, 'Cairn Context Report', vscode.ViewColumn.Beside, {
      retainContextWhenHidden: false,
    });
    this.panel = panel;
    const sink = { post: (message: unknown) => panel.webview.postMessage(message) };
    const registration = this.controller.addView(sink, 'report');
    const listener = panel.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(sink, raw));
    panel.onDidDispose(() => {
      registration.dispose();
      listener.dispose();
      this.panel = undefined;
    });
    setWebviewPage(panel.webview, this.extensionUri, 'report');
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
