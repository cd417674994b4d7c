/**
 * The `cairn.*` settings through VS Code: read (each problem logged once, the workspace's values of user-only
 * settings ignored, `settingsReader.ts`), the model picker's write, and the hooks' timeout, the user's only.
 */
import * as vscode from 'vscode';
import { DEFAULT_HOOK_TIMEOUT_SECONDS } from '../core/hooks/sessionHooks';
import type { OutputLog } from './outputLog';
import { ignoredWorkspaceValues, readCairnSettings, userScopedGetter, type CairnSettings } from './settingsReader';

/** Reads the settings; each problem (`told`: those logged in this window) is logged once, not at every change. */
export function readSettings(log: OutputLog, toldProblems: Set<string>): CairnSettings {
  const config = vscode.workspace.getConfiguration('cairn');
  const read = readCairnSettings(userScopedGetter(config));
  for (const problem of [...read.problems, ...ignoredWorkspaceValues(config)]) {
    if (toldProblems.has(problem)) continue;
    toldProblems.add(problem);
    log.warn(problem);
  }
  return read;
}

/**
 * The chat's model picker writes `cairn.model` where it is set now (a folder's or the workspace's value
 * wins over the user's, so writing the user's would change nothing), else in the user's settings.
 */
export async function pickModelSetting(model: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('cairn');
  const where = config.inspect<string>('model');
  const target =
    where?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : where?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await config.update('model', model, target);
}

/** `cairn.hooks.timeoutSeconds`, read from the user's settings only (a repository cannot lengthen what it runs). */
export function hookTimeoutSeconds(): number {
  const value = vscode.workspace.getConfiguration('cairn').inspect<number>('hooks.timeoutSeconds')?.globalValue;
  return typeof value === 'number' && value >= 1 && value <= 3600 ? value : DEFAULT_HOOK_TIMEOUT_SECONDS;
}
