/**
 * What the user allowed to run without asking (issue 34, item 9): the one owner of the list. Three kinds, each
 * saying how long it lasts:
 * - **this session**: an approval's "Allow … this session"; kept in memory for the open session, gone when
 *   another session starts or opens, or the window reloads;
 * - **always, for this user**: an approval's "Always allow …"; kept in the extension's user-level storage
 *   (`globalState`: every workspace, never a repository's to write) until revoked;
 * - **settings**: the user's own `cairn.approvals` (read user-scoped only); revoking one removes it there.
 * The edit family (edit, multiedit, write, apply_patch) is one allowance ("edits"). Protected paths still ask
 * and an untrusted workspace still refuses whatever is allowed: that is `approvalVerdict`'s rule, not this list's.
 */
import { EDITS_ALLOWANCE } from '../core/agent/approval';
import type { AllowanceView } from '../shared/protocol';

/** The `globalState` key of the user's lasting allowances (a list of `{key, label}`). */
export const USER_ALLOWANCES_KEY = 'cairn.allowances';

/** Where "always" answers were kept before, per workspace: dropped (each tool asks once more), never widened to the user. */
export const OLD_WORKSPACE_ALLOWANCES_KEY = 'cairn.alwaysAllow';

export type AllowanceScope = AllowanceView['scope'];

interface Stored {
  readonly key: string;
  readonly label: string;
}

/** The storage the user's allowances live in (`context.globalState`). */
export interface AllowanceState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export interface AllowancesDeps {
  readonly userState: AllowanceState;
  /** The open session's id (session allowances belong to it). */
  readonly currentSession: () => string | undefined;
  /** Tool names the user's `cairn.approvals` allows. */
  readonly settingsAllowed: () => ReadonlySet<string>;
  /** Removes one name from the user's `cairn.approvals`. */
  readonly removeFromSettings: (tool: string) => Promise<void>;
}

/** What an allowance is called in the list. */
export function allowanceLabel(key: string, tool: string): string {
  if (key === EDITS_ALLOWANCE) return 'Edits (edit, multiedit, write, apply_patch)';
  if (key === 'bash') return 'Commands (bash)';
  if (key.startsWith('mcp:')) return `MCP tool ${tool}`;
  return tool;
}

export class Allowances {
  private readonly session = new Map<string, Stored & { readonly sessionId: string | undefined }>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: AllowancesDeps) {}

  /** Every key allowed now: this session's, the user's lasting ones, the user's settings. */
  keys(): ReadonlySet<string> {
    const current = this.deps.currentSession();
    return new Set([
      ...[...this.session.values()].filter((entry) => entry.sessionId === current).map((entry) => entry.key),
      ...this.stored().map((entry) => entry.key),
      ...this.deps.settingsAllowed(),
    ]);
  }

  /** Allows `key` (an approval's answer) for this session or always; `label` says what it is in the list. */
  async grant(key: string, label: string, scope: 'session' | 'user'): Promise<void> {
    if (scope === 'session') {
      this.session.set(key, { key, label, sessionId: this.deps.currentSession() });
    } else {
      const kept = this.stored().filter((entry) => entry.key !== key);
      await this.deps.userState.update(USER_ALLOWANCES_KEY, [...kept, { key, label }]);
    }
    this.changed();
  }

  /** The list, lasting ones first; each with the id `revoke` takes. */
  list(): AllowanceView[] {
    const current = this.deps.currentSession();
    return [
      ...this.stored().map((entry) => ({ id: `user:${entry.key}`, label: entry.label, scope: 'user' as const })),
      ...[...this.deps.settingsAllowed()].sort().map((tool) => ({ id: `settings:${tool}`, label: tool, scope: 'settings' as const })),
      ...[...this.session.values()]
        .filter((entry) => entry.sessionId === current)
        .map((entry) => ({ id: `session:${entry.key}`, label: entry.label, scope: 'session' as const })),
    ];
  }

  /** Stops allowing one: it asks again from the next call. False when there was no such allowance. */
  async revoke(id: string): Promise<boolean> {
    const at = id.indexOf(':');
    const scope = id.slice(0, at);
    const key = id.slice(at + 1);
    let revoked = false;
    if (scope === 'session') revoked = this.session.delete(key);
    if (scope === 'user') {
      const stored = this.stored();
      const kept = stored.filter((entry) => entry.key !== key);
      revoked = kept.length < stored.length;
      if (revoked) await this.deps.userState.update(USER_ALLOWANCES_KEY, kept);
    }
    if (scope === 'settings' && this.deps.settingsAllowed().has(key)) {
      await this.deps.removeFromSettings(key);
      revoked = true;
    }
    if (revoked) this.changed();
    return revoked;
  }

  /** Told whenever the list changes (the chat's list is sent again). */
  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The open session changed (or the settings did): the list is sent again. */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private stored(): Stored[] {
    const value = this.deps.userState.get<unknown>(USER_ALLOWANCES_KEY);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (entry): entry is Stored =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as Stored).key === 'string' &&
        typeof (entry as Stored).label === 'string' &&
        // An MCP tool's answer is kept under its server's identity; a bare mcp__ name could be any server's.
        !(entry as Stored).key.startsWith('mcp__'),
    );
  }
}
