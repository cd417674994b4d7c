import type { BlobStore, CurrentFile } from './ports';
import type { FileState } from './types';

/** A file as it is now, kept as a checkpoint state: its bytes go to the blob store. */
export async function keepState(file: CurrentFile, blobs: BlobStore): Promise<FileState> {
  switch (file.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'content':
      return { kind: 'content', sha: await blobs.put(file.bytes), size: file.bytes.byteLength };
    case 'too_large':
      return { kind: 'unknown', reason: `over 5 MB (${Math.round(file.size / 1024 / 1024)} MB): not kept` };
    case 'unreadable':
      return { kind: 'unknown', reason: file.reason };
  }
}

/** Whether a file as it is now is exactly the state (unknown states never match). */
export function matchesState(file: CurrentFile, state: FileState, shaOf: (bytes: Uint8Array) => string): boolean {
  if (state.kind === 'absent') return file.kind === 'absent';
  if (state.kind === 'unknown' || file.kind !== 'content') return false;
  return file.bytes.byteLength === state.size && shaOf(file.bytes) === state.sha;
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b) return false;
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind;
  if (a.kind === 'content' && b.kind === 'content') return a.sha === b.sha;
  return false;
}
