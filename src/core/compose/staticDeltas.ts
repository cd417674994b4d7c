/**
 * What the model has of the rules files and the skills catalog in the current generation, and the envelopes
 * that bring it up to date when they change on disk mid-generation (the static part itself changes only at a
 * new generation, so the cached prefix stays whole). The composer owns the static part and hands it in.
 */
import type { ConversationEntry } from '../conversation/conversation';
import type { TextBlock } from '../model/types';
import { catalogDeltaBlock } from './catalogDelta';
import type { DecisionQueue } from './decisions';
import { catalogTheModelHas, rulesTheModelHas } from './deltaBaseline';
import { selectPacks } from './packs';
import { describeRulesChanges, rulesDeltaBlocks, type RulesSource } from './rules';
import type { CatalogInput, StaticPart } from './staticPart';

export interface StaticDeltasOptions {
  readonly rules: RulesSource;
  readonly skillsCatalog?: () => Promise<CatalogInput>;
  /** The current generation's entries: what the model has is folded from them when given (`ComposerOptions.conversation`). */
  readonly conversation?: () => readonly ConversationEntry[];
  readonly decisions: DecisionQueue;
}

export class StaticDeltas {
  /** Rules text by path as the model has it (system part plus deltas already reported), without `conversation`. */
  private knownRules = new Map<string, string>();
  /** The skills catalog as the model has it (system part, then the deltas already returned), without `conversation`. */
  private knownCatalog = '';

  constructor(private readonly options: StaticDeltasOptions) {}

  /** The model has exactly this static part (one adopted, or one an undone compaction returned to). */
  know(part: StaticPart): void {
    this.knownRules = new Map(part.rules);
    this.knownCatalog = part.catalog;
  }

  /**
   * Blocks to put first in the next user message when a rules file changed since the model was
   * given it; [] otherwise. What it returns counts as known, so each change is reported once.
   */
  async rules(part: StaticPart): Promise<TextBlock[]> {
    const current = await this.options.rules.load();
    const entries = this.options.conversation?.();
    const known = entries ? rulesTheModelHas(new Map(part.rules), entries) : this.knownRules;
    const blocks = rulesDeltaBlocks(known, current);
    if (blocks.length === 0) return [];
    const changed = describeRulesChanges(
      known,
      current.map((file) => [file.path, file.text]),
    );
    this.knownRules = new Map(current.map((file) => [file.path, file.text]));
    this.options.decisions.add({ kind: 'rules_delta', detail: `rules sent as a delta: ${changed}`, resultIds: [] });
    return blocks;
  }

  /**
   * The skills catalog as an envelope for the next user message when it changed on disk since the model
   * was given it (a skill added, removed or edited); [] otherwise. Chosen under the same budget as the
   * system part's, so the full or the compact list; what it returns counts as known.
   */
  async catalog(part: StaticPart): Promise<TextBlock[]> {
    if (!this.options.skillsCatalog) return [];
    const input = await this.options.skillsCatalog();
    const [choice] = selectPacks([input.pack], { tokens: input.budgetTokens });
    const text = choice!.text;
    const entries = this.options.conversation?.();
    const known = entries ? catalogTheModelHas(part.catalog, entries) : this.knownCatalog;
    if (text === known) return [];
    this.knownCatalog = text;
    this.options.decisions.add({
      kind: 'skill',
      detail: `skills catalog changed on disk: sent as a delta (${choice!.variant}, ${choice!.tokens} tokens)`,
      resultIds: [],
    });
    return [catalogDeltaBlock(text)];
  }
}
