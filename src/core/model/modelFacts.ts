import type { Clock, Logger } from '../ports';
import { silentLogger, systemClock } from '../ports';
import type { ModelCapabilities, ModelFacts } from './types';

/** Per-model overrides from settings; the key `*` applies to every model, under any per-model entry. */
export type ModelFactsOverrides = Readonly<Record<string, Partial<Pick<ModelFacts, 'maxInputTokens' | 'maxOutputTokens'>>>>;

/** What the Models API says about a model (`GET /v1/models/{id}`); `null` where it does not say. */
export interface ModelsApiFacts {
  readonly max_input_tokens: number | null;
  readonly max_tokens: number | null;
  /** What the model accepts for thinking and effort, when the server says (`capabilities` of the Models API). */
  readonly capabilities?: ModelCapabilities | null;
}

export type ModelsApiLookup = (modelId: string) => Promise<ModelsApiFacts>;

interface Window {
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
}

/**
 * Used only when the Models API cannot answer (offline, an older compatible server, missing
 * fields). Exact entries are the published numbers for those ids; any other id of a family gets
 * the family's numbers, which every current model of the family meets. Newer ids (such as the
 * 5.x names the SDK lists) have no published numbers here, so they get the family default too and
 * the Models API or a setting is the way to learn more.
 */
const EXACT: Readonly<Record<string, Window>> = {
  'claude-opus-4-1': { maxInputTokens: 200_000, maxOutputTokens: 32_000 },
  'claude-opus-4-0': { maxInputTokens: 200_000, maxOutputTokens: 32_000 },
  'claude-sonnet-4-0': { maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  'claude-sonnet-4-5': { maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  'claude-haiku-4-5': { maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  'claude-opus-4-5': { maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  'claude-3-5-haiku': { maxInputTokens: 200_000, maxOutputTokens: 8_192 },
};

const FAMILY: ReadonlyArray<readonly [RegExp, Window]> = [
  [/^claude-(sonnet|opus|haiku|fable|mythos)-/, { maxInputTokens: 200_000, maxOutputTokens: 64_000 }],
  [/^claude-3-7-sonnet/, { maxInputTokens: 200_000, maxOutputTokens: 64_000 }],
];

/** Anything else (an unknown id on a compatible server): small enough that requests stay valid. */
const UNKNOWN: Window = { maxInputTokens: 200_000, maxOutputTokens: 8_192 };

/** Dated ids (`claude-sonnet-4-5-20250929`) share their alias's numbers. */
function withoutDate(modelId: string): string {
  return modelId.replace(/-\d{8}$/, '');
}

export function fallbackFacts(modelId: string): Window {
  const alias = withoutDate(modelId);
  const exact = EXACT[alias];
  if (exact) return exact;
  for (const [pattern, window] of FAMILY) if (pattern.test(alias)) return window;
  return UNKNOWN;
}

function positive(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

/** How long a failed lookup's fallback is trusted before the Models API is asked again. */
export const FAILED_LOOKUP_RETRY_MS = 5 * 60_000;

interface CacheEntry {
  readonly facts: Promise<ModelFacts>;
  /** Set when the lookup failed: after this time the API is asked again (the key may be set by then). */
  expiresAt?: number;
  /** The credential the lookup was made with (see `facts`). */
  readonly credential: string | undefined;
}

/**
 * Model facts from the Models API, looked up once per id. A failed lookup falls back to the table
 * and is retried only after a while: asking on every turn would slow every turn while offline. A failed
 * lookup is asked again at once when the credential changed (issue 34: a key set from the welcome after
 * the chat opened must not leave the session on the table's 200K for five minutes, its meter and its
 * compaction threshold with it). Settings win over everything, field by field.
 */
export class ModelFactsCatalog {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly lookup: ModelsApiLookup,
    private readonly overrides: ModelFactsOverrides = {},
    private readonly logger: Logger = silentLogger,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * `credential` names what the lookup is made with (the client passes a digest of the key, or undefined
   * when there is none): a failed answer is kept only for the credential it failed with.
   */
  facts(modelId: string, credential?: string): Promise<ModelFacts> {
    const cached = this.cache.get(modelId);
    const failedWithAnother = cached?.expiresAt !== undefined && cached.credential !== credential;
    if (cached && !failedWithAnother && (cached.expiresAt === undefined || this.clock.now() < cached.expiresAt)) return cached.facts;
    const entry: CacheEntry = {
      credential,
      // `then` callbacks always run later, so `entry` is assigned by the time this one does.
      facts: this.resolve(modelId).then(({ facts, lookupFailed }) => {
        if (lookupFailed) entry.expiresAt = this.clock.now() + FAILED_LOOKUP_RETRY_MS;
        return facts;
      }),
    };
    this.cache.set(modelId, entry);
    return entry.facts;
  }

  private async resolve(modelId: string): Promise<{ facts: ModelFacts; lookupFailed: boolean }> {
    let lookupFailed = false;
    let fromApi: Partial<Window> = {};
    let capabilities: ModelCapabilities | undefined;
    try {
      const answer = await this.lookup(modelId);
      fromApi = { maxInputTokens: positive(answer.max_input_tokens), maxOutputTokens: positive(answer.max_tokens) };
      capabilities = answer.capabilities ?? undefined;
      if (fromApi.maxInputTokens === undefined || fromApi.maxOutputTokens === undefined) {
        this.logger.warn(
          `The Models API gave no context window or output limit for ${modelId}; using Cairn's fallback table for what is missing.`,
        );
      }
    } catch (error) {
      lookupFailed = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Could not read model facts for ${modelId} from the Models API (${reason}); using Cairn's fallback table.`);
    }
    const fallback = fallbackFacts(modelId);
    const override = { ...this.overrides['*'], ...this.overrides[modelId] };
    const maxInputTokens = positive(override.maxInputTokens) ?? fromApi.maxInputTokens ?? fallback.maxInputTokens;
    const maxOutputTokens = positive(override.maxOutputTokens) ?? fromApi.maxOutputTokens ?? fallback.maxOutputTokens;
    const source: ModelFacts['source'] =
      positive(override.maxInputTokens) !== undefined || positive(override.maxOutputTokens) !== undefined
        ? 'settings'
        : fromApi.maxInputTokens !== undefined && fromApi.maxOutputTokens !== undefined
          ? 'models-api'
          : 'fallback-table';
    return { facts: { id: modelId, maxInputTokens, maxOutputTokens, source, ...(capabilities ? { capabilities } : {}) }, lookupFailed };
  }
}
