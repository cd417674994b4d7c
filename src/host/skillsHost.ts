import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { HostToWebview, SkillView, TodoItemView } from '../shared/protocol';

export interface SkillsHostDeps {
  /** The open session, opening one when none is (the chat's list and `/name` need one). */
  readonly session: () => Promise<AssembledSession>;
  /** The open session, if any: refreshing the views never opens one (a closing window must stay closed). */
  readonly current: () => AssembledSession | undefined;
  readonly broadcast: (message: HostToWebview) => void;
  /** A message the user should see in the chat (a `/name` that names no skill it can turn on). */
  readonly notify: (level: 'info' | 'warning', message: string) => void;
}

/** What `/name` did to a message before it is sent. */
export type PreparedMessage = { readonly send: true; readonly text: string } | { readonly send: false };

/**
 * The editor's side of skills (issue 18): the chat's skills list and its toggles, `/name` at the start of
 * a message, the plan shown above the input. Turning a skill on or off takes effect with the next
 * message (its envelope goes ahead of the user's text); nothing already sent is changed.
 */
export class SkillsHost {
  constructor(private readonly deps: SkillsHostDeps) {}

  /** Name and description of each skill the user can activate with `/name` (for the composer's completion list). */
  async listUserInvocableSkills(): Promise<Array<{ name: string; description: string }>> {
    const { skills } = await this.deps.session();
    return (await skills.list()).filter((s) => s.userInvocable).map((s) => ({ name: s.name, description: s.description }));
  }

  /** Sends the list as it is now (after a toggle, a change on disk); `onlyIfAny`: not when there is none to show. */
  async refresh(onlyIfAny = false): Promise<void> {
    const skills = this.deps.current()?.skills;
    if (!skills) return;
    const list: SkillView[] = (await skills.list()).map((s) => ({
      name: s.name,
      description: s.description,
      scope: s.scope,
      file: s.file,
      userInvocable: s.userInvocable,
      active: s.active,
    }));
    if (onlyIfAny && list.length === 0) return;
    this.deps.broadcast({ type: 'skills', skills: list });
  }

  async toggle(name: string, active: boolean): Promise<void> {
    const { skills } = await this.deps.session();
    const done = active ? await skills.enable(name) : skills.disable(name);
    if (!done.ok) this.deps.notify('warning', done.message);
    await this.refresh();
  }

  /**
   * A message starting with `/name` of a user-invocable skill turns that skill on; the rest is the
   * message. `/name` alone turns it on for the next message and sends nothing. Any other `/word` (a chat
   * command, a path) is left as the user wrote it.
   */
  async prepare(text: string): Promise<PreparedMessage> {
    const match = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!match) return { send: true, text };
    const [, name, rest = ''] = match;
    const { skills } = await this.deps.session();
    const known = (await skills.list()).find((s) => s.name === name);
    if (!known?.userInvocable) return { send: true, text };
    const done = await skills.enable(name!);
    if (!done.ok) {
      this.deps.notify('warning', done.message);
      return { send: false };
    }
    await this.refresh();
    if (rest.trim().length === 0) {
      this.deps.notify(
        'info',
        `The skill ${name} is on; it goes to the model with your next message and stays on for the rest of the session (turn it off in the skills list).`,
      );
      return { send: false };
    }
    return { send: true, text: rest };
  }

  /** The list and the plan, for a chat that just opened (or a session just switched to). */
  async refreshAll(): Promise<void> {
    // A chat that just opened starts with neither: nothing to send when there is nothing to show.
    await this.refresh(true);
    const memory = this.deps.current()?.memory;
    if (memory && memory.todo.length > 0) this.showTodo(memory.todo);
  }

  /** The plan as the chat shows it. */
  showTodo(items: readonly TodoItemView[]): void {
    this.deps.broadcast({ type: 'todo', items: items.map((i) => ({ text: i.text, status: i.status })) });
  }
}
