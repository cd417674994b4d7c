/**
 * The report's list of requests with each child agent's apart (issue 19): the session's own requests in
 * order, and each child's requests in one group under its id, placed where the child's first request is.
 * Children run during the parent's `task` call and may run together, so their requests interleave in the
 * session's order; grouped, each child's read as its own list.
 */
import type { RequestSnapshotView } from '../../src/shared/protocol';

export type RequestRow =
  | { readonly kind: 'request'; readonly snapshot: RequestSnapshotView }
  | { readonly kind: 'agent'; readonly agent: string; readonly snapshots: readonly RequestSnapshotView[] };

export function requestRows(snapshots: readonly RequestSnapshotView[]): RequestRow[] {
  const rows: RequestRow[] = [];
  const groups = new Map<string, RequestSnapshotView[]>();
  for (const snapshot of snapshots) {
    if (snapshot.agent === undefined) {
      rows.push({ kind: 'request', snapshot });
      continue;
    }
    const group = groups.get(snapshot.agent);
    if (group) {
      group.push(snapshot);
      continue;
    }
    const fresh = [snapshot];
    groups.set(snapshot.agent, fresh);
    rows.push({ kind: 'agent', agent: snapshot.agent, snapshots: fresh });
  }
  return rows;
}
