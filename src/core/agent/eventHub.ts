import type { AgentEvent } from './events';

export type AgentListener = (event: AgentEvent) => void;

/** Where a session's events go: the chat, the headless transcript, tests. Delivery never stops the agent. */
export class EventHub {
  private readonly listeners = new Set<AgentListener>();

  on(listener: AgentListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed view) must never stop the agent.
      }
    }
  }
}
