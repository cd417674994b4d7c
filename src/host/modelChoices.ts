/**
 * The chat's model picker: the models the server lists, each with its window (from the server) and its
 * price (Cairn's table with `cairn.prices` on top), and the model the next request will use. The current
 * model is listed even when the server does not name it (a custom id in `cairn.model`), so the picker
 * never hides what is in use.
 */
import { priceFor, resolvePrices, type PriceTable } from '../core/pricing/prices';
import type { ListedModel } from '../core/model/types';
import type { ModelChoices, ModelChoiceView } from '../shared/protocol';

export function modelChoices(listed: readonly ListedModel[], current: string, prices: PriceTable): ModelChoices {
  const table = resolvePrices(prices);
  const models: ModelChoiceView[] = listed.map((model) => {
    const price = priceFor(table, model.id)?.price;
    return {
      id: model.id,
      displayName: model.displayName,
      ...(model.maxInputTokens !== undefined ? { windowTokens: model.maxInputTokens } : {}),
      ...(price ? { price: { input: price.input, output: price.output } } : {}),
    };
  });
  if (current && !models.some((model) => model.id === current)) {
    const price = priceFor(table, current)?.price;
    models.unshift({
      id: current,
      displayName: `${current} (from settings)`,
      ...(price ? { price: { input: price.input, output: price.output } } : {}),
    });
  }
  return { current, models };
}
