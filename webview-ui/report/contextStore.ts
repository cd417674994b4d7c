/**
 * The report's "In context now" state (issue 35): which tab shows, the results the next request carries (asked
 * of the host, which derives them from the one history), the filter and sort, the chosen results, and a drop's
 * preview and outcome. Nothing the session said is kept in webview state.
 */
import { batch, signal } from '@preact/signals';
import type { ContextInventoryView, DropPreviewView, HostNotification } from '../../src/shared/protocol';
import type { HostBridge } from '../common/hostBridge';
import type { ContextFilter, ContextSort } from './contextRows';

/** `savings`: what hygiene saved (issue 35 §4, `SavingsTab.tsx`). */
export type ReportTab = 'requests' | 'context' | 'savings';

export class ContextStore {
  readonly tab = signal<ReportTab>('requests');
  readonly inventory = signal<ContextInventoryView | undefined>(undefined);
  readonly loading = signal(false);
  readonly error = signal<string | undefined>(undefined);
  readonly filter = signal<ContextFilter>({ text: '', supersededOnly: false });
  readonly sort = signal<ContextSort>('tokens');
  readonly chosen = signal<ReadonlySet<string>>(new Set());
  /** The cost of dropping the chosen results, waiting for Drop or Cancel. */
  readonly preview = signal<DropPreviewView | undefined>(undefined);
  /** The last drop done (its Undo stays until the next request uses it: the host refuses after). */
  readonly dropped = signal<DropPreviewView | undefined>(undefined);
  private asked = 0;

  constructor(readonly bridge: HostBridge) {
    bridge.onNotification((message) => this.apply(message));
  }

  apply(message: HostNotification): void {
    if (message.type === 'showContext') {
      batch(() => {
        this.tab.value = 'context';
        this.chosen.value = new Set(message.resultIds);
        this.preview.value = undefined;
      });
      void this.refresh();
    } else if (message.type === 'snapshot' || message.type === 'init' || message.type === 'compactionState') {
      // A request was made, a session opened, a compaction or undo happened: the context may have changed.
      if (message.type === 'snapshot') this.dropped.value = undefined;
      if (this.tab.value === 'context') void this.refresh();
    }
  }

  show(tab: ReportTab): void {
    this.tab.value = tab;
    if (tab === 'context') void this.refresh();
  }

  async refresh(): Promise<void> {
    const ask = ++this.asked;
    this.loading.value = true;
    try {
      const inventory = await this.bridge.request('contextInventory', {});
      if (ask !== this.asked) return;
      const present = new Set(inventory.items.filter((i) => !i.oneLine).map((i) => i.id));
      batch(() => {
        this.inventory.value = inventory;
        this.error.value = undefined;
        this.chosen.value = new Set([...this.chosen.value].filter((id) => present.has(id)));
      });
    } catch (error) {
      if (ask === this.asked) this.error.value = error instanceof Error ? error.message : String(error);
    } finally {
      if (ask === this.asked) this.loading.value = false;
    }
  }

  toggle(id: string, on: boolean): void {
    const next = new Set(this.chosen.value);
    if (on) next.add(id);
    else next.delete(id);
    batch(() => {
      this.chosen.value = next;
      this.preview.value = undefined;
    });
  }

  async askPreview(): Promise<void> {
    await this.act(async () => {
      this.preview.value = await this.bridge.request('dropPreview', { resultIds: [...this.chosen.value] });
    });
  }

  async confirmDrop(): Promise<void> {
    const preview = this.preview.value;
    if (!preview) return;
    await this.act(async () => {
      const done = await this.bridge.request('dropResults', { resultIds: [...this.chosen.value] });
      batch(() => {
        this.dropped.value = done;
        this.preview.value = undefined;
        this.chosen.value = new Set();
      });
      await this.refresh();
    });
  }

  cancelPreview(): void {
    this.preview.value = undefined;
  }

  /** The drop's Undo: the same undo as an elision's or a compaction's (refused once a request used it). */
  undoDrop(): void {
    this.bridge.notify({ type: 'compaction', action: 'undo' });
    this.dropped.value = undefined;
  }

  private async act(task: () => Promise<void>): Promise<void> {
    try {
      this.error.value = undefined;
      await task();
    } catch (error) {
      this.error.value = error instanceof Error ? error.message : String(error);
    }
  }
}
