/**
 * Every request the server received, in memory and (when a file is given) one JSON line each, so
 * tests and benchmarks can assert on exactly what a client sent and what it was told.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Fault } from '../scenario/types';
import type { CacheDiagnostics } from './cacheDiagnosis';

/** `keep_warm`: Cairn's minimal request that keeps a cache entry alive (`x-cairn-request-kind: keep_warm`), answered apart from the script. */
export type LoggedRequestKind = 'main' | 'compaction' | 'keep_warm' | 'count_tokens' | 'models';

export interface LoggedUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  /** The cache write by the lifetime it was written with (`ttl: "1h"` writes are billed higher). */
  readonly cache_creation?: { readonly ephemeral_5m_input_tokens: number; readonly ephemeral_1h_input_tokens: number };
}

/** How the prompt-cache simulation saw one answered request. */
export interface LoggedCache {
  readonly blocks: number;
  readonly breakpoints: readonly number[];
  readonly hitBlock: number;
  readonly totalTokens: number;
  /** Tokens written again because an entry had expired (`PromptCache`), by the lifetime written with. */
  readonly rewrittenAfterExpiry5m: number;
  readonly rewrittenAfterExpiry1h: number;
}

export interface LoggedRequest {
  /** 0-based, in the order requests arrived. */
  readonly index: number;
  readonly kind: LoggedRequestKind;
  readonly method: string;
  readonly path: string;
  /** The body parsed from JSON, exactly as received (null for GET or unparseable bodies). */
  readonly body: unknown;
  readonly rawBody: string;
  /** The request's headers (lower-case names), credentials shown only as `[set]`: what a gateway would have received. */
  readonly headers?: Readonly<Record<string, string>>;
  /** HTTP status answered (200 also for a stream later cut). */
  status: number;
  /** Usage as reported to the client. */
  usage?: LoggedUsage;
  /** How the prompt-cache simulation saw this request (main and compaction requests answered). */
  cache?: LoggedCache;
  /** What the scenario injected into this request. */
  fault?: Fault;
  /** The scenario turn that answered (assistant or summary), when one did. */
  turnIndex?: number;
  /** The child agent the request was for (its `x-cairn-agent` header, or agent hooks' `agentOf`); absent for the parent's. */
  agent?: string;
  /** Set by agent hooks: a side request answered apart from the script, or a retrieval served before a step. */
  role?: 'side' | 'retrieval' | 'compaction';
  /** The cache diagnosis sent, for a request that opted in (`diagnostics` or the beta header): null for none found. */
  diagnostics?: CacheDiagnostics | null;
  /** The error message sent, for a 4xx/5xx. */
  error?: string;
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];

  constructor(private readonly file?: string) {
    if (file) mkdirSync(dirname(file), { recursive: true });
  }

  get requests(): readonly LoggedRequest[] {
    return this.entries;
  }

  start(entry: Omit<LoggedRequest, 'index' | 'status'>): LoggedRequest {
    const logged: LoggedRequest = { ...entry, index: this.entries.length, status: 0 };
    this.entries.push(logged);
    return logged;
  }

  /** Written when the answer is decided, so the line holds the status, usage and fault too. */
  finish(entry: LoggedRequest): void {
    if (!this.file) return;
    const { rawBody: _raw, ...line } = entry;
    // Synchronous on purpose: the line is on disk before the client sees the answer.
    appendFileSync(this.file, JSON.stringify(line) + '\n');
  }
}
