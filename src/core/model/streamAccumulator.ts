import { ModelError } from './errors';
import type { AssistantBlock, CacheMissReason, ModelResponse, ModelStreamEvent, ModelUsage, StopReason } from './types';

/**
 * The server-sent events of a Messages stream, as the wire carries them. Kept structural (no SDK
 * import) so this file runs on anything that speaks the format; fields Cairn does not use are left out.
 */
export type WireStreamEvent =
  | { type: 'message_start'; message: { id: string; model: string; usage: Partial<WireUsage> | null; diagnostics?: unknown } }
  | { type: 'content_block_start'; index: number; content_block: WireContentBlock }
  | { type: 'content_block_delta'; index: number; delta: WireDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: string | null }; usage: Partial<WireUsage> | null }
  | { type: 'message_stop' };

export interface WireUsage {
  input_tokens: number | null;
  output_tokens: number | null;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}

export type WireContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: string };

export type WireDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: string };

const KNOWN_STOP_REASONS: ReadonlySet<string> = new Set<StopReason>([
  'end_turn',
  'tool_use',
  'max_tokens',
  'pause_turn',
  'refusal',
  'stop_sequence',
]);

type Draft =
  | { kind: 'text'; text: string; stopped: boolean }
  | { kind: 'thinking'; thinking: string; signature: string; stopped: boolean }
  | { kind: 'redacted_thinking'; data: string; stopped: boolean }
  | { kind: 'tool_use'; id: string; name: string; json: string; input: unknown; stopped: boolean };

/**
 * Builds one assistant message from stream events, reporting deltas as they arrive.
 *
 * A stream cut part-way (`finish(true)`) keeps only what can be sent back to the API unchanged:
 * - complete blocks as received;
 * - a partial text block's text as received (text needs no signature; an empty one is dropped
 *   because the API refuses empty text blocks);
 * - a thinking block only once its signature has arrived (the signature comes last and the API
 *   verifies it, so an unsigned thinking block would be rejected);
 * - a tool_use only once its block stopped (a half-received input is not valid JSON, and a call
 *   the model never finished must not be run).
 * Blocks of types Cairn does not use (server tools) are skipped.
 */
export class StreamAccumulator {
  private id = '';
  private model = '';
  private readonly drafts = new Map<number, Draft>();
  private stopReason: StopReason | null = null;
  private sawMessageDelta = false;
  private sawMessageStop = false;
  private diagnosis: CacheMissReason | null | undefined;
  private readonly usage: ModelUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  /** True once any content block has started: after that a failure is a cut, not a retry. */
  contentStarted = false;

  constructor(
    private readonly onEvent: ((event: ModelStreamEvent) => void) | undefined,
    private readonly onSkipped: (blockType: string) => void = () => {},
  ) {}

  get started(): boolean {
    return this.id !== '';
  }

  get complete(): boolean {
    return this.sawMessageStop;
  }

  add(event: WireStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.id = event.message.id;
        this.model = event.message.model;
        this.mergeUsage(event.message.usage);
        this.diagnosis = cacheDiagnosisOf(event.message.diagnostics);
        return;
      case 'content_block_start':
        this.startBlock(event.index, event.content_block);
        return;
      case 'content_block_delta':
        this.applyDelta(event.index, event.delta);
        return;
      case 'content_block_stop':
        this.stopBlock(event.index);
        return;
      case 'message_delta':
        this.sawMessageDelta = true;
        this.stopReason = normaliseStopReason(event.delta.stop_reason);
        this.mergeUsage(event.usage);
        return;
      case 'message_stop':
        this.sawMessageStop = true;
        return;
    }
  }

  /**
   * The message so far. `cut` says the stream ended early; a response whose final `message_delta`
   * arrived with every block stopped has lost nothing, so it is not marked incomplete.
   */
  finish(cut: boolean): ModelResponse {
    const everythingArrived = this.sawMessageDelta && [...this.drafts.values()].every((d) => d.stopped);
    const incomplete = cut && !everythingArrived;
    const content: AssistantBlock[] = [];
    for (const index of [...this.drafts.keys()].sort((a, b) => a - b)) {
      const block = this.toBlock(this.drafts.get(index)!, incomplete);
      if (block) content.push(block);
    }
    return {
      id: this.id,
      model: this.model,
      content,
      stopReason: incomplete ? null : this.stopReason,
      usage: { ...this.usage },
      incomplete,
      ...(this.diagnosis !== undefined ? { cacheDiagnosis: this.diagnosis } : {}),
    };
  }

  private startBlock(index: number, block: WireContentBlock): void {
    switch (block.type) {
      case 'text': {
        const text = (block as { text: string }).text ?? '';
        this.contentStarted = true;
        this.drafts.set(index, { kind: 'text', text, stopped: false });
        if (text) this.onEvent?.({ type: 'text_delta', index, text });
        return;
      }
      case 'thinking': {
        const b = block as { thinking: string; signature: string };
        this.contentStarted = true;
        this.drafts.set(index, { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '', stopped: false });
        if (b.thinking) this.onEvent?.({ type: 'thinking_delta', index, text: b.thinking });
        return;
      }
      case 'redacted_thinking':
        this.contentStarted = true;
        this.drafts.set(index, { kind: 'redacted_thinking', data: (block as { data: string }).data, stopped: false });
        return;
      case 'tool_use': {
        const b = block as { id: string; name: string; input: unknown };
        this.contentStarted = true;
        this.drafts.set(index, { kind: 'tool_use', id: b.id, name: b.name, json: '', input: b.input ?? {}, stopped: false });
        this.onEvent?.({ type: 'tool_use_start', index, id: b.id, name: b.name });
        return;
      }
      default:
        this.contentStarted = true;
        this.onSkipped(block.type);
    }
  }

  private applyDelta(index: number, delta: WireDelta): void {
    const draft = this.drafts.get(index);
    if (!draft) return;
    if (delta.type === 'text_delta' && draft.kind === 'text') {
      const text = (delta as { text: string }).text;
      draft.text += text;
      this.onEvent?.({ type: 'text_delta', index, text });
    } else if (delta.type === 'thinking_delta' && draft.kind === 'thinking') {
      const text = (delta as { thinking: string }).thinking;
      draft.thinking += text;
      this.onEvent?.({ type: 'thinking_delta', index, text });
    } else if (delta.type === 'signature_delta' && draft.kind === 'thinking') {
      draft.signature += (delta as { signature: string }).signature;
    } else if (delta.type === 'input_json_delta' && draft.kind === 'tool_use') {
      const partialJson = (delta as { partial_json: string }).partial_json;
      draft.json += partialJson;
      this.onEvent?.({ type: 'tool_input_delta', index, partialJson });
    }
  }

  private stopBlock(index: number): void {
    const draft = this.drafts.get(index);
    if (!draft) return;
    if (draft.kind === 'tool_use') {
      // The start event carries `input: {}` and the real input arrives as JSON text in deltas.
      if (draft.json.trim() !== '') {
        try {
          draft.input = JSON.parse(draft.json);
        } catch {
          throw new ModelError('server', `The model sent input for tool "${draft.name}" that is not valid JSON.`, {
            advice: 'Try again; if it keeps happening, report it with the session export.',
          });
        }
      }
    }
    draft.stopped = true;
  }

  private toBlock(draft: Draft, incomplete: boolean): AssistantBlock | null {
    switch (draft.kind) {
      case 'text':
        if (incomplete && !draft.stopped && draft.text === '') return null;
        return { type: 'text', text: draft.text };
      case 'thinking':
        if (incomplete && draft.signature === '') return null;
        return { type: 'thinking', thinking: draft.thinking, signature: draft.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: draft.data };
      case 'tool_use':
        if (incomplete && !draft.stopped) return null;
        return { type: 'tool_use', id: draft.id, name: draft.name, input: draft.input };
    }
  }

  private mergeUsage(usage: Partial<WireUsage> | null | undefined): void {
    if (!usage) return;
    // Counters in message_delta are cumulative totals, so overwrite, never add.
    if (typeof usage.input_tokens === 'number') this.usage.input_tokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.usage.output_tokens = usage.output_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') {
      this.usage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
    }
    if (typeof usage.cache_read_input_tokens === 'number') this.usage.cache_read_input_tokens = usage.cache_read_input_tokens;
  }
}

function normaliseStopReason(reason: string | null): StopReason | null {
  if (reason === null) return null;
  if (KNOWN_STOP_REASONS.has(reason)) return reason as StopReason;
  // The output was cut because the context window filled up: to the loop that is the same as
  // running out of `max_tokens` (the answer is truncated; compaction, not a retry, helps).
  if (reason === 'model_context_window_exceeded') return 'max_tokens';
  // A stop reason newer than this build: end the turn rather than guess at a continuation.
  return 'end_turn';
}

/**
 * The `diagnostics` of a message as the server sent it (untrusted): its `cache_miss_reason` when it has a
 * well-formed one, null for "no divergence" (`diagnostics: null`, or a reason still pending), undefined when
 * the field is absent or malformed.
 */
export function cacheDiagnosisOf(diagnostics: unknown): CacheMissReason | null | undefined {
  if (diagnostics === undefined) return undefined;
  if (diagnostics === null) return null;
  if (typeof diagnostics !== 'object') return undefined;
  const reason = (diagnostics as { cache_miss_reason?: unknown }).cache_miss_reason;
  if (reason === null || reason === undefined) return null;
  if (typeof reason !== 'object') return undefined;
  const { type, cache_missed_input_tokens: missed } = reason as { type?: unknown; cache_missed_input_tokens?: unknown };
  if (typeof type !== 'string' || !/^[a-z_]{1,64}$/.test(type)) return undefined;
  return typeof missed === 'number' && Number.isFinite(missed) && missed >= 0 ? { type, cache_missed_input_tokens: missed } : { type };
}
