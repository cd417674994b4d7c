/**
 * The model client the sessions use: the real Anthropic client, rebuilt when `cairn.baseUrl` changes so a
 * new server is used from the next request without reopening the session. The key is looked up before
 * every request (SecretStorage, then ANTHROPIC_API_KEY), so a key set later works at once.
 */
import { AnthropicModelClient } from '../core/model/anthropicClient';
import { API_KEY_SECRET, findApiKey, findAuthToken, isDemoKey, resolveBaseUrl, type Environment } from '../core/model/apiKey';
import type { ListedModel, ModelClient, ModelFacts, ModelRequest, ModelResponse, StreamOptions } from '../core/model/types';
import type { Logger, Secrets } from '../core/ports';

export class SettingsModelClient implements ModelClient {
  private client: { baseUrl: string | undefined; client: AnthropicModelClient } | undefined;
  /** Every key read (a changed key, a rebuilt client): results are redacted of all of them. */
  private readonly keys = new Set<string>();

  constructor(
    private readonly secrets: Secrets,
    private readonly baseUrlSetting: () => string | undefined,
    private readonly logger: Logger,
    private readonly env: Environment = process.env,
    /** Told each key read, so the log can hide it. */
    private readonly onKey: (key: string | undefined) => void = () => undefined,
    /** `cairn.headers`, read before each request. */
    private readonly headers: () => Readonly<Record<string, string>> = () => ({}),
  ) {}

  stream(request: ModelRequest, options: StreamOptions): Promise<ModelResponse> {
    return this.current().stream(request, options);
  }

  modelFacts(modelId: string): Promise<ModelFacts> {
    return this.current().modelFacts(modelId);
  }

  /** The server's models; also how a saved key is checked before saying Cairn is ready. */
  listModels(): Promise<ListedModel[]> {
    return this.current().listModels();
  }

  /** The server the client talks to when it is not Anthropic's (`cairn.baseUrl`, else ANTHROPIC_BASE_URL). */
  get server(): string | undefined {
    return resolveBaseUrl(this.baseUrlSetting(), this.env);
  }

  async apiKey(): Promise<string | undefined> {
    const key = await findApiKey(this.secrets, this.env);
    if (key) this.keys.add(key);
    this.onKey(key);
    return key;
  }

  /**
   * Where `apiKey` finds the key: SecretStorage wins over the environment; `demo` is the demo's dummy key
   * from the environment for a server on this machine (not a secret: no warning).
   */
  async apiKeySource(): Promise<'secret-storage' | 'environment' | 'demo' | undefined> {
    if ((await this.secrets.get(API_KEY_SECRET))?.trim()) return 'secret-storage';
    const key = this.env['ANTHROPIC_API_KEY']?.trim();
    if (!key) return undefined;
    return isDemoKey(key, this.server) ? 'demo' : 'environment';
  }

  /** The gateway's bearer token (“Cairn: Set Auth Token”, else ANTHROPIC_AUTH_TOKEN): sent instead of the key when set. */
  async authToken(): Promise<string | undefined> {
    const token = await findAuthToken(this.secrets, this.env);
    if (token) this.keys.add(token);
    this.onKey(token);
    return token;
  }

  knownSecrets(): readonly string[] {
    return [...this.keys, ...(this.client?.client.knownSecrets() ?? [])];
  }

  async learnSecrets(): Promise<void> {
    await this.apiKey().catch(() => undefined);
    await this.authToken().catch(() => undefined);
  }

  private current(): AnthropicModelClient {
    const baseUrl = resolveBaseUrl(this.baseUrlSetting(), this.env);
    if (!this.client || this.client.baseUrl !== baseUrl) {
      this.client = {
        baseUrl,
        client: new AnthropicModelClient({
          apiKey: () => this.apiKey(),
          authToken: () => this.authToken(),
          headers: this.headers,
          ...(baseUrl ? { baseUrl } : {}),
          logger: this.logger,
        }),
      };
    }
    return this.client.client;
  }
}
