/**
 * Issue 34, item 8: an edit's approval shows the change as a diff of the file with context and line numbers
 * (not the call's fragments), and what the user settles on in review (a hunk dropped, a line edited) is what
 * is written and what the model is told. A real ledger over a real folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../node/workspace/nodeWorkspace';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { ResultLedger } from '../ledger/resultLedger';
import { sha256Hex } from '../text/sha';
import { REVISED_NOTE } from '../tools/changePlan';
import type { ApprovalDecision, ApprovalRequest } from './approval';
import { describeForApproval } from './approvalDetail';
import { runWithApproval } from './approvalGate';
import type { AgentEvent } from './events';

const TWENTY = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const trees: TestTree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.remove();
});

function setup(files: Record<string, string>, answer: (request: ApprovalRequest, root: string) => ApprovalDecision) {
  const tree = makeTestTree(files);
  trees.push(tree);
  const store = new MemoryResultStore();
  const ledger = new ResultLedger({ workspace: new NodeWorkspace(tree.root), store });
  const asked: ApprovalRequest[] = [];
  const events: AgentEvent[] = [];
  const deps = {
    tools: ledger,
    approver: {
      request: async (request: ApprovalRequest) => {
        asked.push(request);
        return answer(request, tree.root);
      },
    },
    approvals: () => ({ alwaysAllow: new Set<string>(), workspaceTrusted: true }),
    isReadOnlyTool: () => false,
    describeForApproval,
    emit: (event: AgentEvent) => void events.push(event),
  };
  const run = async (name: string, input: unknown) =>
    (await runWithApproval(deps, { callId: `c-${name}`, name, input }, name, new AbortController().signal)).result;
  return { root: tree.root, store, asked, events, run, disk: (path: string) => readFileSync(join(tree.root, path), 'utf8') };
}

const diffsOf = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'approval_requested' ? [e.detail?.diffs ?? []] : [])).at(-1) ?? [];

describe('reviewing a proposed change before approving it', () => {
  it('shows an edit as a diff of the file with three lines of context and the real line numbers', async () => {
    const h = setup({ 'a.txt': TWENTY }, () => ({ kind: 'allow' }));
    await h.run('edit', { path: 'a.txt', old_string: 'line 10\n', new_string: 'line ten\n' });
    const [diff] = diffsOf(h.events);
    expect(diff).toEqual({
      path: 'a.txt',
      change: 'update',
      hunks: ['@@ -7,7 +7,7 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13'].join('\n'),
    });
    // The approver has the whole proposal to open in the diff editor; what was approved is what was written.
    expect(h.asked[0]!.proposal?.files).toEqual([
      { relative: 'a.txt', displayPath: 'a.txt', before: TWENTY, after: TWENTY.replace('line 10\n', 'line ten\n') },
    ]);
    expect(h.disk('a.txt')).toBe(TWENTY.replace('line 10\n', 'line ten\n'));
  });

  it('shows write, multiedit and apply_patch as diffs of the files they change', async () => {
    const h = setup({ 'a.txt': TWENTY, 'b.txt': 'one\ntwo\n' }, () => ({ kind: 'deny' }));
    await h.run('write', { path: 'b.txt', content: 'one\n2\n' });
    expect(diffsOf(h.events)).toEqual([{ path: 'b.txt', change: 'update', hunks: '@@ -1,2 +1,2 @@\n one\n-two\n+2' }]);
    await h.run('multiedit', {
      path: 'a.txt',
      edits: [
        { old_string: 'line 2\n', new_string: 'line two\n' },
        { old_string: 'line 19\n', new_string: 'line nineteen\n' },
      ],
    });
    expect(
      diffsOf(h.events)[0]!
        .hunks.split('\n')
        .filter((l) => l.startsWith('@@')),
    ).toEqual(['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@']);
    await h.run('apply_patch', {
      patch: '*** Begin Patch\n*** Update File: b.txt\n@@\n-two\n+zwei\n*** Add File: c.txt\n+new\n*** End Patch',
    });
    expect(diffsOf(h.events)).toEqual([
      { path: 'b.txt', change: 'update', hunks: '@@ -1,2 +1,2 @@\n one\n-two\n+zwei' },
      { path: 'c.txt', change: 'create', hunks: '@@ -0,0 +1,1 @@\n+new' },
    ]);
  });

  it("writes the user's revision (one hunk kept, one dropped) and tells the model exactly that", async () => {
    const kept = TWENTY.replace('line 2\n', 'line two\n');
    const h = setup({ 'a.txt': TWENTY }, (request) => ({
      kind: 'allow',
      revised: new Map([[request.proposal!.files[0]!.relative, kept]]),
    }));
    const result = await h.run('multiedit', {
      path: 'a.txt',
      edits: [
        { old_string: 'line 2\n', new_string: 'line two\n' },
        { old_string: 'line 19\n', new_string: 'line nineteen\n' },
      ],
    });
    expect(h.disk('a.txt')).toBe(kept);
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      [
        `[${result.id} a.txt sha ${sha256Hex(kept).slice(0, 8)}]`,
        REVISED_NOTE,
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+line two',
        ' line 3',
        ' line 4',
        ' line 5',
      ].join('\n'),
    );
    // The stored result (what a recall and the chat read) says the same.
    expect(h.store.get(result.id)?.body).toBe(result.text.split('\n').slice(1).join('\n'));
  });

  it('writes nothing when the file changed while the proposal waited, and says so', async () => {
    const h = setup({ 'a.txt': TWENTY }, (_request, root) => {
      writeFileSync(join(root, 'a.txt'), 'changed elsewhere\n');
      return { kind: 'allow' };
    });
    const result = await h.run('edit', { path: 'a.txt', old_string: 'line 10\n', new_string: 'line ten\n' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('a.txt changed on disk while the change was being reviewed. Nothing was changed.');
    expect(h.disk('a.txt')).toBe('changed elsewhere\n');
  });

  it('does not ask about an edit its tool would refuse (the text is not in the file)', async () => {
    const h = setup({ 'a.txt': TWENTY }, () => ({ kind: 'allow' }));
    const result = await h.run('edit', { path: 'a.txt', old_string: 'line 99\n', new_string: 'x\n' });
    expect(h.asked).toEqual([]);
    expect(result.text).toContain('old_string was not found in a.txt');
  });
});
