/**
 * Cairn's own shapes for the Messages API. They mirror the wire format (snake_case) so a request
 * serialises canonically, but only the Anthropic client (`anthropicClient.ts`) imports the SDK.
 */

/** A prompt-cache entry's lifetime: five minutes (the default, written at 1.25×) or an hour (2×). */
export type CacheTtl = '5m' | '1h';

export interface CacheControl {
  readonly type: 'ephemeral';
  /** Absent: five minutes. A one-hour breakpoint must come before every five-minute one (tools, system, messages). */
  readonly ttl?: CacheTtl;
}

export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
  cache_control?: CacheControl;
}

/**
 * An image the user attached or a `read` of an image file answered with (issue 33): base64 bytes already within
 * the provider's limits (`core/images/imageBudget.ts`). It follows the text that names it (its bracket line).
 */
export type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: ImageMediaType; data: string };
  cache_control?: CacheControl;
}

export type AssistantBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;
export type UserBlock = TextBlock | ToolResultBlock | ImageBlock;
export type ContentBlock = AssistantBlock | UserBlock;

export interface UserMessage {
  role: 'user';
  content: UserBlock[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantBlock[];
}

export type Message = UserMessage | AssistantMessage;

export interface JsonSchema {
  readonly type: 'object';
  readonly properties: Record<string, unknown>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
  cache_control?: CacheControl;
}

/** Why a request is made: the local server and the snapshots tell compaction requests apart. */
/** `keep_warm`: a minimal request (max_tokens 1) repeating the last main request's prefix so its cache entry lives on. */
export type RequestPurpose = 'main' | 'compaction' | 'keep_warm';

/** The request body exactly as sent (no internal fields: those live in the snapshot). */
export interface ModelRequest {
  model: string;
  max_tokens: number;
  system: TextBlock[];
  tools: ToolDefinition[];
  messages: Message[];
  thinking?: ThinkingConfig;
  /** `output_config.effort` (`cairn.effort`), sent only to a model that takes it. */
  output_config?: { effort: Effort };
}

/** How the model may think (`cairn.thinking`, `core/model/thinking.ts`): a fixed budget, the model's own choice, or not at all. */
export type ThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' } | { type: 'disabled' };

/** How much effort the model puts into an answer, for models that take it (`cairn.effort`). */
export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'pause_turn' | 'refusal' | 'stop_sequence';

/** What streams in while a response is produced, for the UI. */
export type ModelStreamEvent =
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; text: string }
  | { type: 'tool_use_start'; index: number; id: string; name: string }
  | { type: 'tool_input_delta'; index: number; partialJson: string }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string };

/**
 * The provider's own account of a prompt-cache miss (cache diagnostics, beta `cache-diagnosis-2026-04-07`):
 * where this request stopped matching the previous one it named (`model_changed`, `system_changed`,
 * `tools_changed`, `messages_changed`, with the tokens that could not be read), `previous_message_not_found`,
 * or `unavailable`. The server's words, kept as given (checked for shape only).
 */
export interface CacheMissReason {
  readonly type: string;
  readonly cache_missed_input_tokens?: number;
}

export interface ModelResponse {
  readonly id: string;
  readonly model: string;
  /** Blocks exactly as received; for an incomplete response, the blocks that were complete plus any partial text. */
  readonly content: AssistantBlock[];
  readonly stopReason: StopReason | null;
  readonly usage: ModelUsage;
  /** The stream was cut part-way: content is what arrived. */
  readonly incomplete: boolean;
  /**
   * The server's cache diagnosis: a miss reason, null when it found the request only extended the previous one
   * (an expired entry is no divergence), absent when none was asked for or none came.
   */
  readonly cacheDiagnosis?: CacheMissReason | null;
}

export interface ModelFacts {
  readonly id: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  /** Where the numbers came from. */
  readonly source: 'models-api' | 'fallback-table' | 'settings';
  /**
   * What the Models API says the model accepts for thinking and effort (`capabilities`); absent when the
   * server does not say (an older or compatible server), and then `core/model/thinking.ts` goes by the id.
   */
  readonly capabilities?: ModelCapabilities;
}

export interface ModelCapabilities {
  /** `thinking.type` values the model accepts. */
  readonly thinking: { readonly enabled: boolean; readonly adaptive: boolean };
  /** Effort levels the model accepts (empty: it takes no effort). */
  readonly effort: readonly Effort[];
  /** Whether the model takes image blocks (the Models API's `image_input`); absent when the server does not say. */
  readonly imageInput?: boolean;
}

export interface StreamOptions {
  readonly signal?: AbortSignal;
  readonly purpose: RequestPurpose;
  /**
   * The sub-agent that makes this request (its id, e.g. `explore-1`); absent for the session's own agent.
   * Sent as the `x-cairn-agent` header so a server log (and the local server's script) can tell children apart.
   */
  readonly agent?: string;
  readonly onEvent?: (event: ModelStreamEvent) => void;
}

export interface ModelClient {
  /** Streams one response. Throws `ModelError` for every failure but a cut stream, which resolves with `incomplete: true`. */
  stream(request: ModelRequest, options: StreamOptions): Promise<ModelResponse>;
  modelFacts(modelId: string): Promise<ModelFacts>;
  /** The credentials this client has sent or read to send (its API keys), so tool results can be redacted of them. */
  knownSecrets?(): readonly string[];
  /**
   * Reads the credentials it would send, without sending anything, so `knownSecrets` holds them before the
   * first request (text built before it, like MCP tool descriptions, is redacted of them too). Never throws:
   * no key yet is not an error here.
   */
  learnSecrets?(): Promise<void>;
  /** The models the server lists (a Models API call: it also checks the key). */
  listModels?(): Promise<ListedModel[]>;
}

/** One entry of the server's model list. */
export interface ListedModel {
  readonly id: string;
  readonly displayName: string;
  /** Absent when the server does not say. */
  readonly maxInputTokens?: number;
}
