/**
 * Answers the model's tool calls: every tool_use of an assistant message gets exactly one tool_result, so the
 * next request is valid whatever happens. A call runs (with approval, `approvalGate.ts`) or is declared not run:
 * cut off, cancelled, refused past a bound, or a repeated id. Calls that may run side by side (sub-agents'
 * `task`) start together; the results keep the calls' order. The loop appends what this hands back.
 */
import type { DecisionQueue } from '../compose/decisions';
import { imageIfTaken, imageNotSentNote } from '../images/vision';
import type { LedgerResult } from '../ledger/types';
import type { AssistantBlock, ImageBlock, ModelClient, ToolResultBlock, ToolUseBlock, UserBlock } from '../model/types';
import { runWithApproval, type ApprovalGateDeps } from './approvalGate';
import { ledgerDecision } from './ledgerDecision';
import type { RunBounds } from './ports';
import { runTogether } from './runTogether';
import { duplicateIdMessage } from './toolUseIds';

/** What answering needs of the loop's parts; the loop's deps extend it (the loop passes its own deps in). */
export interface ToolUseAnswerDeps extends ApprovalGateDeps {
  /** Asked whether the model takes images, for a result that answers with one (a `read` of an image file). */
  readonly model: Pick<ModelClient, 'modelFacts'>;
  readonly summarizeToolCall: (tool: string, input: unknown) => string;
  /** The ledger's decisions wait here for the next main request's snapshot (the loop takes them when it composes it). */
  readonly decisions: DecisionQueue;
  /**
   * Told when an answer's calls start running and when they have all ended (approval waits included): the time
   * the parent's cache may expire mid-turn, which keep-warm may bridge (`session/keepWarm.ts`).
   */
  readonly toolRun?: { started(): void; ended(): void };
  /**
   * Tools whose calls may run at the same time as their neighbours in one response (the sub-agents' `task`:
   * each child is its own agent; the ledger and the journal take results in any order). None: one at a time.
   */
  readonly runsConcurrently?: (tool: string) => boolean;
  /** The calls that must not run past a bound, with their answers (`RunBounds.screenCalls`). */
  readonly bounds?: Pick<RunBounds, 'screenCalls'>;
}

/** Whether the calls run, or are all answered as cut off with the response that carried them. */
export type AnswerMode = 'run' | 'interrupted';

/** The user message that answers a response's calls, and whether the user cancelled part-way. */
export interface ToolUseAnswers {
  /** The tool_results in the calls' order, then each image a result answered with, after its one line. */
  readonly blocks: UserBlock[];
  /** The indexes of Cairn's blocks in it (the image lines and images), never attributed to the user. */
  readonly syntheticBlocks: number[];
  readonly cancelled: boolean;
}

type ImagesById = Map<string, { line: string; block: ImageBlock }>;

export class ToolUseAnswerer {
  constructor(
    private readonly deps: ToolUseAnswerDeps,
    /** The model the run sends to (`cairn.model`, read when a result answers with an image). */
    private readonly modelId: () => string,
  ) {}

  /**
   * Answers every tool_use of `content` with exactly one tool_result: run (with approval), or declared
   * cancelled/interrupted/a repeated id (`duplicates`: new id → the id it repeated) without running.
   * Undefined when the content has no calls.
   */
  async answer(
    content: readonly AssistantBlock[],
    signal: AbortSignal,
    mode: AnswerMode,
    duplicates: ReadonlyMap<string, string>,
  ): Promise<ToolUseAnswers | undefined> {
    const toolUses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (toolUses.length === 0) return undefined;
    const results: ToolResultBlock[] = [];
    // Images the results answer with (a `read` of an image file): sent after the results, each after its one line.
    const images: ImagesById = new Map();
    let cancelled = false;
    // The calls past a bound (too many sub-agents at once) are known, and the user asked, before any runs.
    const runnable = toolUses.filter((use) => !duplicates.has(use.id)).map((use) => ({ callId: use.id, name: use.name, input: use.input }));
    if (mode === 'run') this.deps.toolRun?.started();
    try {
      const refused = (mode === 'run' ? await this.deps.bounds?.screenCalls?.(runnable, signal) : undefined) ?? new Map<string, string>();
      for (let start = 0; start < toolUses.length;) {
        // Calls next to each other that may run at once (sub-agents' `task` calls) start together; the
        // others run one after another, in order. The results keep the calls' order either way.
        let end = start + 1;
        if (mode === 'run' && this.concurrent(toolUses[start]!)) while (end < toolUses.length && this.concurrent(toolUses[end]!)) end++;
        const group = toolUses.slice(start, end);
        const before = cancelled;
        results.push(
          ...(await runTogether(group, signal, (use, groupSignal) =>
            this.answerOne(use, groupSignal, mode, duplicates, before, refused, images),
          )),
        );
        if (signal.aborted) cancelled = true;
        start = end;
      }
    } finally {
      if (mode === 'run') this.deps.toolRun?.ended();
    }
    const imageBlocks: UserBlock[] = [];
    for (const result of results) {
      const image = images.get(result.tool_use_id);
      if (image) imageBlocks.push({ type: 'text', text: image.line }, image.block);
    }
    return { blocks: [...results, ...imageBlocks], syntheticBlocks: imageBlocks.map((_, i) => results.length + i), cancelled };
  }

  /** Whether a call may run beside its neighbours (`ToolUseAnswerDeps.runsConcurrently`). */
  private concurrent(use: ToolUseBlock): boolean {
    return this.deps.runsConcurrently?.(use.name) ?? false;
  }

  /** Answers one tool call: run (with approval), or declared cancelled/interrupted/a repeated id without running. */
  private async answerOne(
    use: ToolUseBlock,
    signal: AbortSignal,
    mode: AnswerMode,
    duplicates: ReadonlyMap<string, string>,
    cancelledBefore: boolean,
    refused: ReadonlyMap<string, string>,
    images: ImagesById,
  ): Promise<ToolResultBlock> {
    const { deps } = this;
    const call = { callId: use.id, name: use.name, input: use.input };
    const summary = deps.summarizeToolCall(use.name, use.input);
    deps.emit({ type: 'tool_started', callId: use.id, tool: use.name, input: use.input, summary });
    let result: LedgerResult;
    let durationMs: number | undefined;
    const reusedId = duplicates.get(use.id);
    if (reusedId !== undefined) {
      result = await deps.tools.answerWithoutRunning(call, duplicateIdMessage(reusedId));
    } else if (mode === 'interrupted') {
      result = await deps.tools.answerWithoutRunning(call, 'Not run: the response was cut off before this call was complete.');
    } else if (cancelledBefore || signal.aborted) {
      result = await deps.tools.answerWithoutRunning(call, 'Cancelled by the user before it ran.');
    } else if (refused.has(use.id)) {
      result = await deps.tools.answerWithoutRunning(call, refused.get(use.id)!);
    } else {
      const ran = await runWithApproval(deps, call, summary, signal);
      result = ran.result;
      durationMs = ran.durationMs;
    }
    const decision = ledgerDecision(result);
    if (decision) deps.decisions.add(decision);
    deps.emit({ type: 'tool_finished', callId: use.id, result, ...(durationMs !== undefined ? { durationMs } : {}) });
    let content = result.text;
    if (result.image) {
      const modelId = this.modelId();
      const block = await imageIfTaken(deps.model, modelId, result.image);
      if (block) images.set(use.id, { line: result.bracket, block });
      else content = `${content}\n${imageNotSentNote(modelId)}`;
    }
    return { type: 'tool_result', tool_use_id: use.id, content, ...(result.isError ? { is_error: true } : {}) };
  }
}
