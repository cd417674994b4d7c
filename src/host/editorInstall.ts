/**
 * Facts of the editor Cairn runs in, read from its install: its bundled ripgrep, the extension's version, the
 * folder that holds the editor's data (and its secret store), which commands must not see.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';

/** VS Code's own ripgrep, when this build ships it (the extension host is Node: NodeWorkspace runs it). */
export function bundledRipgrep(): string | undefined {
  const rg = join(vscode.env.appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', process.platform === 'win32' ? 'rg.exe' : 'rg');
  return existsSync(rg) ? rg : undefined;
}

/** The extension's version from its manifest, for the MCP handshake ("0" where the host does not say). */
export function extensionVersion(context: vscode.ExtensionContext): string {
  const manifest = (context.extension as { packageJSON?: { version?: unknown } } | undefined)?.packageJSON;
  return typeof manifest?.version === 'string' ? manifest.version : '0';
}

/**
 * The editor's data folder, to hide from commands: the folder above `User/globalStorage/<extension>` (VS Code's
 * `~/.config/Code`, a remote window's `~/.vscode-server/data`, code-server's `~/.local/share/code-server`),
 * which holds the secret store. In any other layout, only this extension's own global storage.
 */
export function editorDataFolder(globalStorage: string): string {
  const storage = dirname(globalStorage);
  const user = dirname(storage);
  return basename(storage) === 'globalStorage' && basename(user) === 'User' ? dirname(user) : globalStorage;
}
