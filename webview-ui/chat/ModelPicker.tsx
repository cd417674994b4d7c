import { useSignal } from '@preact/signals';
import type { ModelChoiceView } from '../../src/shared/protocol';
import { formatTokens } from '../common/format';
import type { ChatStore } from './chatStore';

function label(model: ModelChoiceView): string {
  const facts = [
    model.windowTokens !== undefined ? `${formatTokens(model.windowTokens)} window` : undefined,
    model.price ? `$${model.price.input}/$${model.price.output} per M tokens` : 'price unknown',
  ].filter(Boolean);
  return `${model.displayName} · ${facts.join(' · ')}`;
}

/**
 * The model the next request uses, and the server's other models to pick from (listed when the picker is
 * first opened: a models call). A native select: keyboard and screen readers work as everywhere else.
 */
export function ModelPicker({ store }: { store: ChatStore }) {
  const models = useSignal<readonly ModelChoiceView[] | undefined>(undefined);
  const problem = useSignal<string | undefined>(undefined);
  const loading = useSignal(false);
  const current = store.model.value;
  const load = () => {
    if (loading.value || models.value) return;
    loading.value = true;
    store
      .listModels()
      .then((choices) => {
        models.value = choices.models;
        problem.value = undefined;
      })
      .catch((error: unknown) => (problem.value = `The models could not be listed: ${(error as Error).message}`))
      .finally(() => (loading.value = false));
  };
  const listed = models.value ?? [];
  const options = listed.some((m) => m.id === current) || !current ? listed : [{ id: current, displayName: current }, ...listed];
  return (
    <span class="model-picker">
      <select
        class="model-select"
        aria-label="Model for the next request"
        title={problem.value ?? 'The model the next request uses'}
        value={current}
        disabled={store.busy.value}
        onFocus={load}
        onMouseDown={load}
        onChange={(e) => store.pickModel((e.currentTarget as HTMLSelectElement).value)}
      >
        {options.length === 0 && <option value="">{loading.value ? 'Loading models…' : 'Model'}</option>}
        {options.map((model) => (
          <option key={model.id} value={model.id}>
            {model.id === current && !models.value ? model.displayName : label(model)}
          </option>
        ))}
      </select>
      {problem.value && (
        <span class="model-problem" role="status">
          {problem.value}
        </span>
      )}
    </span>
  );
}
