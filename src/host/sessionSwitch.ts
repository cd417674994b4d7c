import type { AssembledSession } from '../core/session/node/sessionAssembly';

/**
 * One change of session at a time (open the last one, start a new one, open a past one): a change waits
 * for the one in progress, and `pending` is the session being attached, which callers must wait for
 * rather than use (its views have not had their init yet).
 */
export class SessionSwitch {
  private opening: Promise<AssembledSession> | undefined;

  get pending(): Promise<AssembledSession> | undefined {
    return this.opening;
  }

  async run(open: () => Promise<AssembledSession>): Promise<AssembledSession> {
    await this.settled();
    const opening = open().finally(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    this.opening = opening;
    return opening;
  }

  /** Resolves once no change is in progress (whether it succeeded or not). */
  async settled(): Promise<void> {
    while (this.opening) await this.opening.catch(() => undefined);
  }
}
