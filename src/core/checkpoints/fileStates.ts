import type { BlobStore, CurrentFile, KeptFile } from './ports';
import type { FileState, RestorableState } from './types';

/**
 * A file as a restore's preview saw it, checked again at the moment of writing: its state where the
 * preview could read it, else only its version on disk (`stamp`: a file over 5 MB, or one it could not read).
 */
export type SeenFile = RestorableState | { readonly kind: 'stamp'; readonly stamp?: string };

/** A file as it is now, kept as a checkpoint state: its bytes go to the blob store, a link keeps its target. */
export async function keepState(file: CurrentFile, blobs: BlobStore): Promise<FileState> {
  switch (file.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'content':
      return {
        kind: 'content',
        sha: await blobs.put(file.bytes),
        size: file.bytes.byteLength,
        ...(file.executable !== undefined ? { executable: file.executable } : {}),
      };
    case 'link':
      return { kind: 'link', target: file.target };
    case 'too_large':
      return { kind: 'unknown', reason: `over 5 MB (${Math.round(file.size / 1024 / 1024)} MB): not kept` };
    case 'unreadable':
      return { kind: 'unknown', reason: file.reason };
  }
}

/** An executable bit one side does not know (a record from before it was kept) never makes two states differ. */
function sameMode(a: boolean | undefined, b: boolean | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** Whether a file as it is now is exactly the state (unknown states never match). */
export function matchesState(file: CurrentFile, state: FileState, shaOf: (bytes: Uint8Array) => string): boolean {
  switch (state.kind) {
    case 'absent':
      return file.kind === 'absent';
    case 'unknown':
      return false;
    case 'link':
      return file.kind === 'link' && file.target === state.target;
    case 'content':
      return (
        file.kind === 'content' &&
        file.bytes.byteLength === state.size &&
        sameMode(file.executable, state.executable) &&
        shaOf(file.bytes) === state.sha
      );
  }
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b) return false;
  if (a.kind === 'content' && b.kind === 'content') return a.sha === b.sha && sameMode(a.executable, b.executable);
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return a.kind === 'absent' && b.kind === 'absent';
}

/** What the preview saw of a file as it is now. */
export function seenOf(file: CurrentFile, shaOf: (bytes: Uint8Array) => string): SeenFile {
  switch (file.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'content':
      return {
        kind: 'content',
        sha: shaOf(file.bytes),
        size: file.bytes.byteLength,
        ...(file.executable !== undefined ? { executable: file.executable } : {}),
      };
    case 'link':
      return { kind: 'link', target: file.target };
    case 'too_large':
      return { kind: 'stamp', ...(file.stamp !== undefined ? { stamp: file.stamp } : {}) };
    case 'unreadable':
      return { kind: 'stamp' };
  }
}

/** Whether the version a restore kept is still the one its preview saw (a file it could not read matches nothing). */
export function matchesSeen(seen: SeenFile, kept: KeptFile): boolean {
  if (seen.kind === 'stamp') return seen.stamp !== undefined && seen.stamp === kept.stamp;
  return sameState(seen, kept.state);
}
