import type { LoadedRecord } from '../journal/records';
import type { Checkpoint, CheckpointFile, FileState } from './types';

/**
 * The checkpoints of a reopened session, from its journal's `checkpoint` records (the latest record per id
 * wins; an open one a crash left stays open, its files' states after the turn unknown). A record whose
 * shape is damaged is skipped: its files are then simply not offered for restore.
 */
export function checkpointsFromRecords(records: readonly LoadedRecord[]): Checkpoint[] {
  const byId = new Map<string, Checkpoint>();
  for (const record of records) {
    if (record.type !== 'checkpoint') continue;
    const checkpoint = asCheckpoint(record.checkpoint);
    if (!checkpoint) continue;
    byId.delete(checkpoint.id);
    byId.set(checkpoint.id, checkpoint);
  }
  return [...byId.values()].sort((a, b) => numberOf(a.id) - numberOf(b.id));
}

function numberOf(id: string): number {
  return Number(id.slice(3));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A state as any version of Cairn wrote it: `executable` and `link` are newer (issue 28), so optional and added. */
function isState(value: unknown): value is FileState {
  if (!isObject(value)) return false;
  if (value.kind === 'absent') return true;
  if (value.kind === 'content')
    return (
      typeof value.sha === 'string' &&
      /^[0-9a-f]{64}$/.test(value.sha) &&
      Number.isSafeInteger(value.size) &&
      (value.executable === undefined || typeof value.executable === 'boolean')
    );
  // A link's target is what readlink gave: never empty, never with a NUL byte.
  if (value.kind === 'link') return typeof value.target === 'string' && value.target !== '' && !value.target.includes('\0');
  return value.kind === 'unknown' && typeof value.reason === 'string';
}

function isFile(value: unknown): value is CheckpointFile {
  return (
    isObject(value) &&
    typeof value.path === 'string' &&
    value.path !== '' &&
    isState(value.before) &&
    (value.after === undefined || isState(value.after)) &&
    (value.source === 'tool' || value.source === 'command' || value.source === 'restore')
  );
}

function asCheckpoint(value: unknown): Checkpoint | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || !/^cp-\d+$/.test(value.id)) return undefined;
  const turn = value.turn;
  if (!isObject(turn) || !Number.isSafeInteger(turn.generation) || !Number.isSafeInteger(turn.index)) return undefined;
  if (!Array.isArray(value.files) || !value.files.every(isFile)) return undefined;
  if (typeof value.label !== 'string' || typeof value.at !== 'number' || typeof value.closed !== 'boolean') return undefined;
  return value as unknown as Checkpoint;
}
