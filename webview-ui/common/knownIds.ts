/**
 * The result ids this session gave, as the host told them: every id so far with `init`, each new one with
 * the `toolFinished` that carries it (and the ids a result or a snapshot decision names). The chat and the
 * report link only these; an id-shaped word anywhere else (a file's text, the model's prose) stays text.
 */
import { signal } from '@preact/signals';
import type { HostNotification } from '../../src/shared/protocol';

export const knownResultIds = signal<ReadonlySet<string>>(new Set());

function withIds(ids: readonly string[]): void {
  const current = knownResultIds.value;
  if (ids.every((id) => current.has(id))) return;
  knownResultIds.value = new Set([...current, ...ids]);
}

/** Keeps `knownResultIds` up to date from one host notification. */
export function observeKnownIds(message: HostNotification): void {
  switch (message.type) {
    case 'init':
      knownResultIds.value = new Set(message.resultIds);
      return;
    case 'toolFinished':
      withIds([message.result.id, ...(message.result.refersTo ?? [])]);
      return;
    case 'snapshot':
      withIds(message.snapshot.decisions.flatMap((d) => d.resultIds));
      return;
    case 'subagentEvent':
      // A child's results are the session's too (ids are unique in the session): its block links them.
      observeKnownIds(message.event);
      return;
  }
}
