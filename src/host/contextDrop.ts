/**
 * The report's "In context now" and its Drop (issue 35): answers the webview's `contextInventory`,
 * `dropPreview` and `dropResults` from the open session. The list is derived from the current generation
 * (`core/elision/contextInventory.ts`), never kept on the side; a drop is the session's own move
 * (`AgentSession.dropResults`, an elision the user chose), priced by the same cost model the elider judges with,
 * so the preview's figures are the ones the next snapshot's decision lists.
 */
import { contextInventory } from '../core/elision/contextInventory';
import { CACHE_READ } from '../core/elision/costModel';
import type { ElisionPlan } from '../core/elision/elider';
import { priceFor, type PriceTable } from '../core/pricing/prices';
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { ContextInventoryView, DropPreviewView } from '../shared/protocol';

export interface ContextDropDeps {
  session(): Promise<AssembledSession>;
  /** Whether a run is going on: a drop waits for it to end (the session refuses a move mid-run). */
  isBusy(): boolean;
  /** The model the next request uses, and the prices the snapshots use. */
  model(): string;
  prices(): PriceTable;
  /** After a drop: the meter and the compaction notice's Undo are worked out again. */
  afterDrop(): Promise<void>;
}

export class ContextDropBusyError extends Error {
  override readonly name = 'ContextDropBusyError';
}

export class ContextDrop {
  constructor(private readonly deps: ContextDropDeps) {}

  async inventory(): Promise<ContextInventoryView> {
    const { session, composer } = await this.deps.session();
    const items = contextInventory(session.generation.conversation.all(), (text) => composer.estimator.countText(text));
    return { items, promptTokens: session.estimateNextTokens() };
  }

  async preview(ids: readonly string[]): Promise<DropPreviewView> {
    this.refuseWhileBusy();
    const { session } = await this.deps.session();
    return this.view(await session.previewDrop(ids));
  }

  async drop(ids: readonly string[]): Promise<DropPreviewView> {
    this.refuseWhileBusy();
    const { session } = await this.deps.session();
    const plan = await session.dropResults(ids);
    await this.deps.afterDrop();
    return this.view(plan);
  }

  private refuseWhileBusy(): void {
    if (this.deps.isBusy())
      throw new ContextDropBusyError(
        'Cairn is working on a message; results can be dropped once it has finished (or after you cancel it).',
      );
  }

  /** The plan's figures, in tokens and in dollars at the model's input price (the cost model's units are base input tokens). */
  private view(plan: ElisionPlan): DropPreviewView {
    const model = this.deps.model();
    const price = priceFor(this.deps.prices(), model)?.price;
    const usd = (units: number): number | null => (price ? (units * price.input) / 1e6 : null);
    const j = plan.judgement;
    return {
      resultIds: plan.elided.map((e) => e.id),
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensAfter,
      savedPerRequest: j.savedPerRequest,
      rewriteTokens: plan.rewriteTokens,
      breakCost: j.breakCost,
      breakEvenRequests: Number.isFinite(j.breakEvenRequests) ? j.breakEvenRequests : -1,
      breakCostUsd: usd(j.breakCost),
      savedPerRequestUsd: usd(CACHE_READ * j.savedPerRequest),
      model,
    };
  }
}
