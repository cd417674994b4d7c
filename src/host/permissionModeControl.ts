/**
 * The permission mode in the editor (issue 32 §1): the user's `cairn.permissionMode` is the one source. The
 * chat's control (and Shift+Tab), "Start it", the palette and the status bar item all write that setting in
 * the user's settings, so the mode in force survives a reload and is the same in every window and session;
 * the session keeps no mode of its own (what the model was told is read from its messages:
 * `core/agent/permissionMode.ts`). Where the issue is silent: a switch while a turn runs applies from the next
 * tool call (refusals and asks happen as calls run), and the model is told at the next user message.
 */
import * as vscode from 'vscode';
import type { PermissionMode } from '../core/agent/permissionModeNames';
import {
  nextPermissionMode,
  PERMISSION_MODE_CYCLE,
  PERMISSION_MODE_DESCRIPTIONS,
  PERMISSION_MODE_LABELS,
} from '../shared/permissionModeView';

export const PERMISSION_MODE_COMMANDS = {
  set: 'cairn.setPermissionMode',
  cycle: 'cairn.cyclePermissionMode',
} as const;

export interface PermissionModeControlDeps {
  /** The mode as the settings hold it now (user settings only: `userScopedGetter`). */
  readonly read: () => PermissionMode;
  /** Writes the user's setting. */
  readonly write: (mode: PermissionMode) => Promise<void>;
  /** Tells the chat views (`SessionController.permissionModeChanged`). */
  readonly publish: (mode: PermissionMode) => void;
  readonly log: (line: string) => void;
}

/** The mode's status bar text and tooltip. */
export function permissionModeStatus(mode: PermissionMode): { text: string; tooltip: string } {
  const icon = mode === 'plan' ? '$(checklist)' : mode === 'ask' ? '$(shield)' : '$(unlock)';
  return {
    text: `${icon} ${PERMISSION_MODE_LABELS[mode]}`,
    tooltip: `Cairn's permission mode: ${PERMISSION_MODE_LABELS[mode]}: ${PERMISSION_MODE_DESCRIPTIONS[mode]}. Click to change it (Shift+Tab in the chat input cycles).`,
  };
}

export class PermissionModeControl implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private shown: PermissionMode;
  /** The mode just written, until the settings' change event brings it back (a remote window reads late). */
  private written: PermissionMode | undefined;

  constructor(private readonly deps: PermissionModeControlDeps) {
    this.item = vscode.window.createStatusBarItem('cairn.permissionMode', vscode.StatusBarAlignment.Right, 101);
    this.item.name = 'Cairn Permission Mode';
    this.item.command = PERMISSION_MODE_COMMANDS.set;
    this.shown = deps.read();
    this.draw();
    this.item.show();
  }

  /** The mode in force. */
  current(): PermissionMode {
    return this.written ?? this.deps.read();
  }

  /** Sets the user's mode (the chat's control, the palette, "Start it"). */
  async set(mode: PermissionMode): Promise<void> {
    this.written = mode;
    this.settle();
    try {
      await this.deps.write(mode);
    } finally {
      this.written = undefined;
    }
    this.settle();
  }

  /** The next mode in the cycle (Shift+Tab's order). */
  cycle(): Promise<void> {
    return this.set(nextPermissionMode(this.current()));
  }

  /** The settings changed (the user's settings.json, another window): show what is in force now. */
  settingsChanged(): void {
    this.settle();
  }

  registerCommands(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(PERMISSION_MODE_COMMANDS.set, async () => {
        const current = this.current();
        const picked = await vscode.window.showQuickPick(
          PERMISSION_MODE_CYCLE.map((mode) => ({
            label: `${mode === current ? '$(check) ' : ''}${PERMISSION_MODE_LABELS[mode]}`,
            description: mode,
            detail: PERMISSION_MODE_DESCRIPTIONS[mode],
            mode,
          })),
          { title: 'Cairn: Permission Mode', placeHolder: `Now: ${PERMISSION_MODE_LABELS[current]} (saved in your user settings)` },
        );
        if (picked) await this.set(picked.mode).catch((error: unknown) => this.failed(error));
      }),
      vscode.commands.registerCommand(PERMISSION_MODE_COMMANDS.cycle, () => this.cycle().catch((error: unknown) => this.failed(error))),
    ];
  }

  dispose(): void {
    this.item.dispose();
  }

  private settle(): void {
    const mode = this.current();
    if (mode === this.shown) return;
    this.shown = mode;
    this.draw();
    this.deps.log(`Permission mode: ${PERMISSION_MODE_LABELS[mode]} (${PERMISSION_MODE_DESCRIPTIONS[mode]}).`);
    this.deps.publish(mode);
  }

  private draw(): void {
    const { text, tooltip } = permissionModeStatus(this.shown);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  private failed(error: unknown): void {
    void vscode.window.showErrorMessage(
      `Cairn could not change the permission mode: ${error instanceof Error ? error.message : String(error)}. Set cairn.permissionMode in your user settings.`,
    );
  }
}
