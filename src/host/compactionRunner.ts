/**
 * Manual compaction as the user sees it: progress while the summary is written, the notice above the input
 * (running → preview → done / failed), apply or discard a preview, and undo until a request has used the
 * new generation. One compaction at a time, and never while the agent runs (both change the conversation).
 * Whether the notice offers Undo is the session's answer (`AgentSession.canUndoCompaction`) each time the notice is
 * shown or a request starts or ends (`refreshUndo`), never the answer it had when the compaction was applied.
 */
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { CompactionPlan } from '../core/compaction/compactor';
import type { CompactionDetails, CompactionStateView } from '../shared/protocol';

export interface CompactionRunnerDeps {
  session(): Promise<AssembledSession>;
  /** The open session, if any (the notice's Undo is asked of it). */
  current(): AssembledSession | undefined;
  isBusy(): boolean;
  /** Says something in the chat (why an Undo did nothing). */
  tell(message: string): void;
  progress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Opens a read-only editor tab with this text. */
  showText(name: string, markdown: string): Promise<void>;
  publish(state: CompactionStateView | null): void;
  log: { info(line: string): void; warn(line: string): void };
  afterChange(): Promise<void>;
}

export class CompactionBusyError extends Error {
  override readonly name = 'CompactionBusyError';
}

export class CompactionRunner {
  private current: CompactionStateView | null = null;
  private pending: CompactionPlan | undefined;
  private running: AbortController | undefined;

  constructor(private readonly deps: CompactionRunnerDeps) {}

  /** The notice as a view should show it now: Undo only while the session can still undo this compaction. */
  get state(): CompactionStateView | null {
    const current = this.current;
    if (!current || current.status !== 'done') return current;
    const canUndo = this.canUndo(current.generation);
    return canUndo === current.canUndo ? current : { ...current, canUndo };
  }

  /** A request started or a run ended: the notice drops (or, after a request that failed unsent, regains) its Undo. */
  refreshUndo(): void {
    const state = this.state;
    if (state && state !== this.current) this.set(state);
  }

  /** Whether the compaction that started `generation` can still be undone: nothing used it, nothing came after it. */
  private canUndo(generation: number): boolean {
    const session = this.deps.current()?.session;
    return session !== undefined && session.canUndoCompaction && session.generation.number === generation;
  }

  /** A new session was opened: nothing pending, no notice. */
  reset(): void {
    this.running?.abort();
    this.running = undefined;
    this.pending = undefined;
    this.current = null;
  }

  cancel(): void {
    this.running?.abort();
  }

  /** The waiting preview: the summary and files table that Apply will use as they are, and the tokens before → after. */
  get preview(): (CompactionDetails & { readonly summarizedMessages: number; readonly keptMessages: number }) | undefined {
    const plan = this.pending;
    if (!plan) return undefined;
    return {
      generation: plan.previous.number,
      summary: plan.summary.text,
      filesTable: plan.filesTable,
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensAfter,
      summarizedMessages: plan.summarized.length,
      keptMessages: plan.keptMessages,
    };
  }

  /** The waiting preview as the webview's compaction details: exactly the summary and files table Apply will use. */
  previewDetails(): CompactionDetails | undefined {
    const preview = this.preview;
    if (!preview) return undefined;
    const { generation, summary, filesTable, tokensBefore, tokensAfter } = preview;
    return {
      generation,
      summary,
      filesTable,
      ...(tokensBefore !== undefined ? { tokensBefore } : {}),
      ...(tokensAfter !== undefined ? { tokensAfter } : {}),
    };
  }

  /** The waiting preview as a read-only Markdown page: tokens before → after, the summary, the files table. */
  previewMarkdown(): string | undefined {
    const preview = this.preview;
    if (!preview) return undefined;
    return [
      '# Compaction preview (not applied yet)',
      '',
      `About ${preview.tokensBefore} → ${preview.tokensAfter} tokens. Summarizes ${preview.summarizedMessages} messages and keeps ${preview.keptMessages}.`,
      'Apply uses this summary as it is; Discard leaves the conversation unchanged.',
      '',
      '## Summary',
      '',
      preview.summary,
      ...(preview.filesTable ? ['', preview.filesTable] : []),
      '',
    ].join('\n');
  }

  /** Shows the waiting preview read-only in an editor tab; false when none waits. */
  async showPreview(): Promise<boolean> {
    const markdown = this.previewMarkdown();
    if (markdown === undefined) return false;
    await this.deps.showText(`compaction-preview-${Date.now()}.md`, markdown);
    return true;
  }

  /** `Cairn: Compact Context`: compacts with progress; `preview` stops before applying. */
  async run(instructions: string | undefined, preview = false): Promise<void> {
    if (this.running) throw new CompactionBusyError('A compaction is already running.');
    if (this.deps.isBusy())
      throw new CompactionBusyError('Cairn is working on a message; wait for it to finish (or cancel it) before compacting.');
    const assembled = await this.deps.session();
    const { session } = assembled;
    const generation = session.generation.number;
    const tokensBefore = session.estimateNextTokens();
    this.pending = undefined;
    this.set({ status: 'running', generation, tokensBefore, hasDetails: false, canUndo: false });
    const controller = new AbortController();
    this.running = controller;
    try {
      const options = { reason: 'manual' as const, ...(instructions ? { instructions } : {}) };
      const planned = await this.deps.progress('Cairn: compacting the conversation…', async (signal) => {
        signal.addEventListener('abort', () => controller.abort(), { once: true });
        return session.planCompaction(options, controller.signal);
      });
      if (!planned.ok) {
        this.deps.log.warn(`[Context] compaction not applied: ${planned.reason}`);
        this.set({ status: 'failed', generation, tokensBefore, message: planned.reason, hasDetails: false, canUndo: false });
        return;
      }
      if (preview) {
        this.pending = planned.plan;
        this.set({
          status: 'preview',
          generation,
          tokensBefore: planned.plan.tokensBefore,
          tokensAfter: planned.plan.tokensAfter,
          message: `Summarizes ${planned.plan.summarized.length} messages and keeps ${planned.plan.keptMessages}.`,
          // The preview's summary and files table are served (`compactionDetails` with `preview`).
          hasDetails: true,
          canUndo: false,
        });
        return;
      }
      await this.applyPlan(planned.plan);
    } finally {
      this.running = undefined;
    }
  }

  /** The webview's apply / discard / undo buttons. */
  async act(action: 'apply' | 'discard' | 'undo'): Promise<void> {
    const assembled = await this.deps.session();
    if (action === 'discard') {
      if (!this.pending) return;
      this.pending = undefined;
      this.set(null);
      return;
    }
    if (action === 'apply') {
      const plan = this.pending;
      if (!plan) {
        this.deps.log.warn('Apply was asked for, but no compaction preview is waiting; ignored.');
        return;
      }
      this.pending = undefined;
      await this.applyPlan(plan);
      return;
    }
    if (this.deps.isBusy()) {
      this.deps.tell(
        'Cairn is working on a message, so the compaction was not undone. Once a request has used the compacted context it can no longer be undone.',
      );
      return;
    }
    const shown = this.current;
    if (!(await assembled.session.undoCompaction())) {
      this.deps.log.warn('Undo was asked for, but the last compaction can no longer be undone (a request has used it).');
      // A click that was on its way when a request used the compaction, or from a view not yet told: say why.
      this.deps.tell(
        'The compaction can no longer be undone: a request has already used its summary. The messages it summarized stay in the session journal (Cairn: Export Session shows them).',
      );
      if (shown) this.set({ ...shown, canUndo: false });
      return;
    }
    this.set(null);
    await this.deps.afterChange();
  }

  private async applyPlan(plan: CompactionPlan): Promise<void> {
    const assembled = await this.deps.session();
    const outcome = await assembled.session.applyCompaction(plan);
    if (!outcome.applied) {
      this.set({
        status: 'failed',
        generation: plan.previous.number,
        tokensBefore: plan.tokensBefore,
        message: outcome.reason,
        hasDetails: false,
        canUndo: false,
      });
      return;
    }
    this.set({
      status: 'done',
      generation: outcome.generation,
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensAfter,
      hasDetails: true,
      canUndo: this.canUndo(outcome.generation),
    });
    await this.deps.afterChange();
  }

  private set(state: CompactionStateView | null): void {
    this.current = state;
    this.deps.publish(state);
  }
}
