import type { RequestSnapshotView } from '../../src/shared/protocol';

/** What the report says about a request's cache break: the part that changed first, then the evidence. */
export interface CacheBreakText {
  /** `tools: the description of \`bash\` changed`, `system block 2 (rules AGENTS.md) changed`, `message 4 (user) block 0 (tool_result) changed`. */
  readonly headline: string;
  /** The first differing characters or the counts; '' when the host sent none apart from the headline. */
  readonly evidence: string;
  /** The changed message's hash, when the break is inside the messages (to compare with another request's hashes). */
  readonly messageHash: string | null;
}

export function cacheBreakText(snapshot: RequestSnapshotView): CacheBreakText | null {
  const found = snapshot.cacheBreak;
  if (!found) return null;
  // A host older than `zone`/`where` placed every break at a message (0 for tools and system).
  const inMessages = found.zone === undefined || found.zone === 'messages';
  const messageHash = inMessages ? (snapshot.messageHashes[found.index] ?? null) : null;
  if (!found.where) return { headline: `at message ${found.index}`, evidence: found.reason, messageHash };
  const evidence = found.reason.startsWith(`${found.where}: `)
    ? found.reason.slice(found.where.length + 2)
    : found.reason === found.where
      ? ''
      : found.reason;
  return { headline: found.where, evidence, messageHash };
}
