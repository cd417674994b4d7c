/**
 * The session list (Cairn: Open Session…, Rename Session…, Delete Session…): the quick pick's items, searchable
 * by name, first message and date, the current session marked; renaming and deleting (with confirmation:
 * deleting is the one way a session is lost; the open session is never deleted). No `vscode` here: the
 * prompts are a port (`commands.ts` passes VS Code's), so the flows are tested with the real catalog.
 */
import type { SessionSummary } from '../core/journal/node/sessionCatalog';

export interface SessionPickItem {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly sessionId: string;
}

/** Newest first as listed; the open one first and marked, so it is found and never mistaken for another. */
export function sessionPickItems(sessions: readonly SessionSummary[], currentId: string | undefined): SessionPickItem[] {
  const items = sessions.map((s) => {
    const current = s.id === currentId;
    const when = s.updated.slice(0, 16).replace('T', ' ');
    return {
      label: `${current ? '$(circle-filled) ' : ''}${s.title || '(no message yet)'}`,
      description: `${current ? 'current · ' : ''}${s.messageCount} messages · ${when}`,
      detail: s.problem ?? (s.inUse ? 'Open in another window (read-only here)' : s.id),
      sessionId: s.id,
    };
  });
  return [...items.filter((i) => i.sessionId === currentId), ...items.filter((i) => i.sessionId !== currentId)];
}

/** The quick pick's options: matches on the name, the date and count, and the id. */
export const SESSION_PICK_OPTIONS = { matchOnDescription: true, matchOnDetail: true } as const;

export interface SessionListPrompts {
  pick(items: readonly SessionPickItem[], title: string): Promise<SessionPickItem | undefined>;
  askName(current: string): Promise<string | undefined>;
  /** A modal question; true only when the user chose `confirm`. */
  confirm(message: string, confirm: string): Promise<boolean>;
  info(message: string): void;
}

export interface SessionListDeps {
  readonly list: () => Promise<SessionSummary[]>;
  readonly currentId: () => Promise<string | undefined>;
  readonly rename: (sessionId: string, name: string) => Promise<void>;
  readonly remove: (sessionId: string) => Promise<void>;
  readonly prompts: SessionListPrompts;
  readonly log: { info(message: string): void };
}

export class SessionList {
  constructor(private readonly deps: SessionListDeps) {}

  /** Rename Session…: `sessionId` and `name` given (a keybinding, a test) skip the questions. */
  async rename(sessionId?: string, name?: string): Promise<void> {
    const session = await this.choose(sessionId, 'Cairn: Rename Session');
    if (!session) return;
    const newName = name ?? (await this.deps.prompts.askName(session.title));
    if (newName === undefined) return;
    await this.deps.rename(session.id, newName);
    this.deps.log.info(`Session ${session.id} renamed.`);
  }

  /** Delete Session…: always asks (modal); the open session is refused. */
  async delete(sessionId?: string): Promise<void> {
    const session = await this.choose(sessionId, 'Cairn: Delete Session');
    if (!session) return;
    if (session.id === (await this.deps.currentId())) {
      this.deps.prompts.info('This session is open. Start a new session (or open another) first, then delete this one.');
      return;
    }
    const what = session.title ? `“${session.title}”` : 'this session';
    const confirmed = await this.deps.prompts.confirm(
      `Delete ${what} (${session.messageCount} messages, last used ${session.updated.slice(0, 16).replace('T', ' ')})? Its journal and stored results are removed; this cannot be undone. Export Session keeps a copy.`,
      'Delete',
    );
    if (!confirmed) return;
    await this.deps.remove(session.id);
    this.deps.log.info(`Session ${session.id} deleted.`);
  }

  private async choose(sessionId: string | undefined, title: string): Promise<SessionSummary | undefined> {
    const sessions = await this.deps.list();
    if (sessionId !== undefined) {
      const given = sessions.find((s) => s.id === sessionId);
      if (!given) throw new Error(`There is no session ${sessionId} in this workspace.`);
      return given;
    }
    if (sessions.length === 0) {
      this.deps.prompts.info('Cairn: this workspace has no sessions yet.');
      return undefined;
    }
    const picked = await this.deps.prompts.pick(sessionPickItems(sessions, await this.deps.currentId()), title);
    return sessions.find((s) => s.id === picked?.sessionId);
  }
}
