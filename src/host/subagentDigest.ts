/**
 * The children's blocks rebuilt from the journal (issue 19): `subagent_started` opens a block on the
 * parent's `task` line (a grandchild's, on its parent child's line), each `subagent_record` adds to the
 * child's transcript (its messages, notices, compactions) or is a request of the child's for the report,
 * and `subagent_finished` closes it with the child's figures. A child with no `subagent_finished` was
 * interrupted (Cairn stopped or crashed while it ran): its block says so and keeps what it had done.
 */
import { isGenerationDetail } from '../core/conversation/generationDetail';
import type { SubagentFinishedRecord, SubagentRecord, SubagentStartedRecord } from '../core/journal/records';
import type { RequestSnapshotView, SubagentUsageView, SubagentView, TranscriptItem } from '../shared/protocol';
import { appendAssistant, fillResults, hasResults, type ResultHeads } from './digestItems';
import { isRequestSnapshot, snapshotViewOf } from './snapshotView';
import { subagentUsageOf } from './subagentProjection';
import { errorText } from './eventProjection';

interface Block {
  readonly header: Omit<SubagentView, 'status' | 'items' | 'reason' | 'usage'>;
  /** The items the block's `task` line is in: the turn's, or the parent child's. */
  readonly host: TranscriptItem[];
  readonly items: TranscriptItem[];
  readonly places: Set<string>;
  finished?: { readonly reason: string; readonly usage: SubagentUsageView };
  /** Summed from its snapshots, for a child that never finished. */
  usage: SubagentUsageView;
}

type ChildRecord = SubagentStartedRecord | SubagentRecord | SubagentFinishedRecord;

export class SubagentDigest {
  /** In the order they started (a grandchild after its parent). */
  private readonly blocks = new Map<string, Block>();
  private tokensSaved = 0;

  constructor(
    private readonly heads: ResultHeads,
    private readonly currentItems: () => TranscriptItem[],
  ) {}

  /** Takes one record; a child's request comes back as the report's row (numbered and placed by the caller). */
  observe(record: ChildRecord): RequestSnapshotView | undefined {
    switch (record.type) {
      case 'subagent_started': {
        const { id, callId, kind, description, prompt, parent } = record.agent;
        const host = (parent !== undefined ? this.blocks.get(parent)?.items : undefined) ?? this.currentItems();
        this.blocks.set(id, {
          header: { id, callId, kind, description, prompt },
          host,
          items: [],
          places: new Set(),
          usage: { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 },
        });
        return undefined;
      }
      case 'subagent_finished': {
        const block = this.blocks.get(record.agent);
        if (block) block.finished = { reason: record.outcome.reason, usage: subagentUsageOf(record.outcome) };
        return undefined;
      }
      case 'subagent_record':
        return this.onRecord(record);
    }
  }

  /** Puts every block on its line; returns the tokens the children's hygiene saved. */
  finish(): number {
    // Newest first: a grandchild's block is on its parent child's line before that child's block is made.
    for (const block of [...this.blocks.values()].reverse()) {
      const position = block.host.findLastIndex((item) => item.type === 'tool' && item.callId === block.header.callId);
      const view = viewOf(block);
      if (position === -1) {
        block.host.push({ type: 'tool', callId: block.header.callId, tool: 'task', summary: 'task', status: 'cancelled', subagent: view });
        continue;
      }
      block.host[position] = { ...(block.host[position] as Extract<TranscriptItem, { type: 'tool' }>), subagent: view };
    }
    return this.tokensSaved;
  }

  private onRecord(record: SubagentRecord): RequestSnapshotView | undefined {
    const block = this.blocks.get(record.agent);
    const inner = record.record;
    if (inner.type === 'snapshot') {
      if (!isRequestSnapshot(inner.snapshot)) return undefined;
      const view = { ...snapshotViewOf(inner.snapshot), agent: record.agent };
      if (block) block.usage = addRequest(block.usage, view);
      return view;
    }
    if (!block) return undefined;
    switch (inner.type) {
      case 'user_message':
        // Its first message is the task (the block's header); later typed ones are Cairn's (a continue).
        if (firstTimeAt(block, inner) && hasResults(inner.message)) this.tokensSaved += fillResults(block.items, inner.message, this.heads);
        return undefined;
      case 'assistant_message':
        if (firstTimeAt(block, inner)) appendAssistant(block.items, inner.message, inner.incomplete === true);
        return undefined;
      case 'notice':
        block.items.push({ type: 'notice', level: inner.level, kind: inner.kind, message: inner.message });
        return undefined;
      case 'run_failed':
        // As live (`subagentProjection.ts`): no button in a child's block; Retry acts on the session, not the child.
        block.items.push({ type: 'error', kind: inner.kind, message: errorText(inner.message, inner.advice) });
        return undefined;
      case 'generation_started':
        if (isGenerationDetail(inner.detail)) {
          const d = inner.detail;
          block.items.push({
            type: 'compaction',
            generation: inner.generation,
            tokensBefore: d.tokensBefore,
            tokensAfter: d.tokensAfter,
            hasDetails: false,
          });
        }
        return undefined;
      default:
        return undefined;
    }
  }
}

/** A later record for the same place in the child's conversation replaces an earlier one (seen once). */
function firstTimeAt(block: Block, record: { generation?: number; index?: number }): boolean {
  if (record.generation === undefined || record.index === undefined) return true;
  const key = `${record.generation}:${record.index}`;
  if (block.places.has(key)) return false;
  block.places.add(key);
  return true;
}

function addRequest(before: SubagentUsageView, view: RequestSnapshotView): SubagentUsageView {
  const usage = view.usage;
  return {
    requests: before.requests + 1,
    inputTokens: before.inputTokens + (usage ? usage.input + usage.cacheWrite + usage.cacheRead : 0),
    outputTokens: before.outputTokens + (usage?.output ?? 0),
    cacheReadTokens: before.cacheReadTokens + (usage?.cacheRead ?? 0),
    costUsd: before.costUsd === null || (usage && view.costUsd === undefined) ? null : before.costUsd + (view.costUsd ?? 0),
  };
}

/** The block as the chat shows it: a child that never finished was interrupted, its open calls cut off. */
function viewOf(block: Block): SubagentView {
  const items = block.items.map((item): TranscriptItem =>
    item.type === 'tool' && item.status === 'running' ? { ...item, status: 'cancelled' } : item,
  );
  const finished = block.finished;
  const status = finished && finished.reason !== 'interrupted' ? 'done' : 'interrupted';
  return {
    ...block.header,
    status,
    reason: finished?.reason ?? 'interrupted',
    items,
    ...(finished ? { usage: finished.usage } : block.usage.requests > 0 ? { usage: block.usage } : {}),
  };
}
