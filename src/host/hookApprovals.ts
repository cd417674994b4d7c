/**
 * Which hooks may run in the editor (issue 33 item 6). The user's own (`~/.claude/settings.json`,
 * `~/.cairn/settings.json`) run. A workspace's (`.claude/settings.json`, `.cairn/settings.json`) run only
 * in a trusted workspace and only after the user approved that file's hooks, in a modal that lists every
 * command: the answer is kept in the extension's `globalState` (user storage a repository cannot write)
 * against the file's path and a hash of its hooks, so any change to them asks again. "Don't Run" is kept
 * the same way (not asked again until the hooks change); a dialog closed without an answer runs nothing
 * and asks again at the next message.
 */
import * as vscode from 'vscode';
import type { HookCommand } from '../core/hooks/hookConfig';
import type { HookProvider } from '../core/hooks/ports';
import { readHookFiles, type HookFile } from '../node/fileHookSource';

/** The `globalState` key: `{ [absolute settings path]: { fingerprint, run } }`. */
export const HOOK_APPROVALS_KEY = 'cairn.hooks.approvals';

const RUN = 'Run These Hooks';
const DONT_RUN = "Don't Run";

type Stored = Record<string, { readonly fingerprint: string; readonly run: boolean }>;

export class HookApprovals implements HookProvider {
  private readonly asking = new Map<string, Promise<boolean>>();
  /** Problems already logged (said once per window). */
  private readonly told = new Set<string>();

  constructor(
    private readonly deps: {
      readonly state: Pick<vscode.Memento, 'get' | 'update'>;
      readonly roots: () => readonly string[];
      readonly homeDir: string;
      readonly log: { warn(line: string): void; info(line: string): void };
    },
  ) {}

  async hooks(): Promise<readonly HookCommand[]> {
    const files = await readHookFiles({ roots: this.deps.roots(), homeDir: this.deps.homeDir, trusted: vscode.workspace.isTrusted });
    const out: HookCommand[] = [];
    for (const file of files) {
      for (const { problem } of file.problems) {
        if (this.told.has(`${file.path}\n${problem}`)) continue;
        this.told.add(`${file.path}\n${problem}`);
        this.deps.log.warn(`Hooks in ${file.source}: ${problem}`);
      }
      if (file.hooks.length === 0) continue;
      if (file.origin === 'user' || (await this.approved(file))) out.push(...file.hooks);
    }
    return out;
  }

  private async approved(file: HookFile): Promise<boolean> {
    const stored = (this.deps.state.get<Stored>(HOOK_APPROVALS_KEY) ?? {})[file.path];
    if (stored?.fingerprint === file.fingerprint) return stored.run;
    const key = `${file.path}\n${file.fingerprint}`;
    const pending = this.asking.get(key);
    if (pending) return pending;
    const asked = this.ask(file).finally(() => this.asking.delete(key));
    this.asking.set(key, asked);
    return asked;
  }

  private async ask(file: HookFile): Promise<boolean> {
    const detail = [
      `${file.source} in this workspace defines hooks: shell commands Cairn would run on your machine, as you, at these moments. ` +
        'Run them only if you trust what they do. A change to them asks again.',
      '',
      ...file.hooks.map((h) => `${h.event}${h.matcher ? ` (${h.matcher})` : ''}: ${h.command}`),
    ].join('\n');
    const answer = await vscode.window.showWarningMessage(`Run the hooks of ${file.source}?`, { modal: true, detail }, RUN, DONT_RUN);
    if (answer !== RUN && answer !== DONT_RUN) {
      this.deps.log.info(
        `Hooks of ${file.source}: the question was closed without an answer; they do not run (asked again at the next message).`,
      );
      return false;
    }
    const all = {
      ...(this.deps.state.get<Stored>(HOOK_APPROVALS_KEY) ?? {}),
      [file.path]: { fingerprint: file.fingerprint, run: answer === RUN },
    };
    await this.deps.state.update(HOOK_APPROVALS_KEY, all);
    this.deps.log.info(`Hooks of ${file.source}: ${answer === RUN ? 'approved' : 'refused'} as they are defined now.`);
    return answer === RUN;
  }
}
