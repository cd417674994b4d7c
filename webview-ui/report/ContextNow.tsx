import type { ContextGroupView, ContextItemView, DropPreviewView } from '../../src/shared/protocol';
import { formatCost, formatTokens } from '../common/format';
import { LinkedText } from '../common/LinkedText';
import { RecallScope } from '../common/RecallScope';
import { contextRows, GROUP_TITLES, lastUsedText, type ContextSort } from './contextRows';
import type { ContextStore } from './contextStore';

const SORTS: readonly { readonly value: ContextSort; readonly label: string }[] = [
  { value: 'tokens', label: 'Tokens' },
  { value: 'lastUsed', label: 'Least recently used' },
  { value: 'timesUsed', label: 'Times used' },
];

function usd(value: number | null): string {
  return value === null ? '' : ` (${formatCost(value)})`;
}

function Row({ item, store }: { item: ContextItemView; store: ContextStore }) {
  const chosen = store.chosen.value.has(item.id);
  return (
    <tr class={`context-row ${item.oneLine ? 'one-line' : ''}`} data-result={item.id}>
      <td>
        <input
          type="checkbox"
          aria-label={`Choose ${item.id} to drop`}
          checked={chosen}
          disabled={item.oneLine}
          onChange={(e) => store.toggle(item.id, (e.currentTarget as HTMLInputElement).checked)}
        />
      </td>
      <td class="context-id">
        <LinkedText text={item.id} />
      </td>
      <td class="context-subject" title={item.bracket}>
        {item.subject}
      </td>
      <td class="context-tokens">{formatTokens(item.tokens)}</td>
      <td class="context-uses">{item.timesUsed}×</td>
      <td class="context-last">{lastUsedText(item.lastUsedRequestsAgo)}</td>
      <td class="context-state">
        {item.oneLine ? 'one line' : item.supersededBy ? <LinkedText text={`superseded by ${item.supersededBy}`} /> : ''}
      </td>
    </tr>
  );
}

function Group({
  group,
  items,
  tokens,
  store,
}: {
  group: ContextGroupView;
  items: readonly ContextItemView[];
  tokens: number;
  store: ContextStore;
}) {
  const title = `${GROUP_TITLES[group]} · ${items.length === 1 ? '1 result' : `${items.length} results`} · ${formatTokens(tokens)} tokens`;
  return (
    <section class="context-group" data-group={group} aria-label={GROUP_TITLES[group]}>
      <h3>{title}</h3>
      <table class="context-table">
        <thead>
          <tr>
            <th scope="col">
              <span class="visually-hidden">Drop</span>
            </th>
            <th scope="col">Id</th>
            <th scope="col">What</th>
            <th scope="col">Tokens</th>
            <th scope="col">Used</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <Row key={item.id} item={item} store={store} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** What the drop costs once and saves after, before the user confirms: the elider's cost model's figures. */
function DropConfirm({ preview, store }: { preview: DropPreviewView; store: ContextStore }) {
  const asked = store.chosen.value.size;
  const more = preview.resultIds.length - asked;
  const pays =
    preview.breakCost === 0
      ? 'The cache has expired, so the rewrite costs nothing extra.'
      : preview.breakEvenRequests < 0
        ? 'It never pays for itself in cost: do it only to give the model less to read.'
        : `It pays for itself after about ${Math.max(1, Math.ceil(preview.breakEvenRequests))} requests.`;
  return (
    <div
      class="drop-confirm"
      role="alertdialog"
      aria-label="Drop from context"
      // The cost model's figures unrounded: the snapshot's decision lists the same (a test compares them).
      data-saved-per-request={preview.savedPerRequest}
      data-break-cost={Math.round(preview.breakCost)}
    >
      <p>
        Drop {asked === 1 ? '1 result' : `${asked} results`}
        {more > 0 && ` (and ${more} that name ${asked === 1 ? 'it' : 'them'})`} to one line each: about {formatTokens(preview.tokensBefore)}{' '}
        → {formatTokens(preview.tokensAfter)} tokens.
      </p>
      <dl class="drop-costs">
        <div>
          <dt>Rewrites once</dt>
          <dd>
            about {formatTokens(preview.rewriteTokens)} tokens written to the cache again, an extra {formatTokens(preview.breakCost)}{' '}
            token-equivalents
            {usd(preview.breakCostUsd)}
          </dd>
        </div>
        <div>
          <dt>Saves on every later request</dt>
          <dd>
            {formatTokens(preview.savedPerRequest)} tokens{usd(preview.savedPerRequestUsd)}
          </dd>
        </div>
      </dl>
      <p class="quiet">{pays} Nothing is lost: each id still shows its result in full, and Undo puts them back until the next request.</p>
      <button type="button" class="button primary" onClick={() => void store.confirmDrop()}>
        Drop
      </button>{' '}
      <button type="button" class="button secondary" onClick={() => store.cancelPreview()}>
        Cancel
      </button>
    </div>
  );
}

/** The report's "In context now": every result the next request carries, grouped, sorted, filterable, droppable. */
export function ContextNow({ store }: { store: ContextStore }) {
  const inventory = store.inventory.value;
  const filter = store.filter.value;
  const groups = inventory ? contextRows(inventory.items, filter, store.sort.value) : [];
  const shown = groups.reduce((n, g) => n + g.items.length, 0);
  const resultTokens = inventory?.items.reduce((n, i) => n + i.tokens, 0) ?? 0;
  const dropped = store.dropped.value;
  return (
    <section class="context-now" aria-label="In context now">
      <p class="quiet">
        {inventory
          ? `${inventory.items.length} results, about ${formatTokens(resultTokens)} of the next request's ${formatTokens(inventory.promptTokens)} tokens.`
          : store.loading.value
            ? 'Reading the context…'
            : ''}
      </p>
      <div class="context-controls">
        <input
          type="search"
          aria-label="Filter results"
          placeholder="Filter: path, command, id…"
          value={filter.text}
          onInput={(e) => (store.filter.value = { ...filter, text: (e.currentTarget as HTMLInputElement).value })}
        />
        <select
          aria-label="Group"
          value={filter.group ?? ''}
          onChange={(e) => {
            const value = (e.currentTarget as HTMLSelectElement).value;
            const { group: _dropped, ...rest } = filter;
            store.filter.value = value === '' ? rest : { ...rest, group: value as ContextGroupView };
          }}
        >
          <option value="">All kinds</option>
          {Object.entries(GROUP_TITLES).map(([value, title]) => (
            <option key={value} value={value}>
              {title}
            </option>
          ))}
        </select>
        <label>
          <input
            type="checkbox"
            checked={filter.supersededOnly}
            onChange={(e) => (store.filter.value = { ...filter, supersededOnly: (e.currentTarget as HTMLInputElement).checked })}
          />{' '}
          Superseded only
        </label>
        <label>
          Sort by{' '}
          <select
            aria-label="Sort by"
            value={store.sort.value}
            onChange={(e) => (store.sort.value = (e.currentTarget as HTMLSelectElement).value as ContextSort)}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="button primary" disabled={store.chosen.value.size === 0} onClick={() => void store.askPreview()}>
          Drop {store.chosen.value.size > 0 ? `${store.chosen.value.size} ` : ''}from context…
        </button>
      </div>
      {store.error.value && (
        <p class="error" role="alert">
          {store.error.value}
        </p>
      )}
      {store.preview.value && <DropConfirm preview={store.preview.value} store={store} />}
      {dropped && (
        <p class="drop-done" role="status">
          Dropped {dropped.resultIds.length === 1 ? '1 result' : `${dropped.resultIds.length} results`}: about{' '}
          {formatTokens(dropped.savedPerRequest)} tokens fewer on every request.{' '}
          <button type="button" class="button secondary" onClick={() => store.undoDrop()}>
            Undo
          </button>
        </p>
      )}
      {inventory && shown < inventory.items.length && (
        <p class="quiet">
          Showing {shown} of {inventory.items.length} results.
        </p>
      )}
      <RecallScope>
        {groups.map((g) => (
          <Group key={g.group} group={g.group} items={g.items} tokens={g.tokens} store={store} />
        ))}
      </RecallScope>
    </section>
  );
}
