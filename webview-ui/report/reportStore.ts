/** The context report's state: the session's request snapshots, updated live, and what is selected. */
import { batch, computed, signal } from '@preact/signals';
import type { HostNotification, RequestSnapshotView } from '../../src/shared/protocol';
import type { HostBridge } from '../common/hostBridge';
import { upsertSnapshot } from './snapshotMath';

interface SavedState {
  readonly selected?: number;
  readonly compareWith?: number;
}

export class ReportStore {
  readonly snapshots = signal<readonly RequestSnapshotView[]>([]);
  /** Undefined: follow the newest request as snapshots arrive. */
  readonly selectedIndex = signal<number | undefined>(undefined);
  readonly compareIndex = signal<number | undefined>(undefined);
  readonly sessionTitle = signal('');

  readonly selected = computed(() => {
    const list = this.snapshots.value;
    const index = this.selectedIndex.value;
    return index === undefined ? list.at(-1) : list.find((s) => s.index === index);
  });
  readonly compared = computed(() => {
    const index = this.compareIndex.value;
    return index === undefined ? undefined : this.snapshots.value.find((s) => s.index === index);
  });

  constructor(readonly bridge: HostBridge) {
    const saved = bridge.getState<SavedState>();
    this.selectedIndex.value = saved?.selected;
    this.compareIndex.value = saved?.compareWith;
    bridge.onNotification((message) => this.apply(message));
  }

  apply(message: HostNotification): void {
    if (message.type === 'init') {
      batch(() => {
        this.snapshots.value = [...(message.snapshots ?? [])].sort((a, b) => a.index - b.index);
        this.sessionTitle.value = message.sessionTitle;
      });
    } else if (message.type === 'snapshot') {
      this.snapshots.value = upsertSnapshot(this.snapshots.value, message.snapshot);
    } else if (message.type === 'selectTurn') {
      // The chat's "Requests" of a turn: its first request (a turn's compaction requests come after it).
      const first = this.snapshots.value.find((s) => s.turn === message.turn);
      if (first) this.select(first.index);
    }
  }

  select(index: number | undefined): void {
    this.selectedIndex.value = index;
    this.save();
  }

  compareWith(index: number | undefined): void {
    this.compareIndex.value = index;
    this.save();
  }

  private save(): void {
    // Only indexes are kept in webview state: nothing the session said, nothing secret.
    this.bridge.setState({ selected: this.selectedIndex.value, compareWith: this.compareIndex.value } satisfies SavedState);
  }
}
