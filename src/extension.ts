import type * as vscode from 'vscode';

/** Composition root: builds the services and registers views and commands. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
