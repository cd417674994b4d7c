import { diffHunks } from '../text/diffs';

/** Lines added and removed from one content to another (the chat's "+3 −1"); undefined for binary content. */
export interface LineCounts {
  readonly added: number;
  readonly removed: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Uint8Array | null): string | undefined {
  if (bytes === null) return '';
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `null` stands for an absent file. */
export function lineCounts(before: Uint8Array | null, after: Uint8Array | null): LineCounts | undefined {
  const a = textOf(before);
  const b = textOf(after);
  if (a === undefined || b === undefined) return undefined;
  let added = 0;
  let removed = 0;
  for (const line of diffHunks(a, b)) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
