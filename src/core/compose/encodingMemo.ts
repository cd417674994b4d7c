import type { ContentBlock, Message } from '../model/types';
import { canonicalRequestJson } from '../model/canonicalJson';
import { utf8Bytes } from '../text/utf8Bytes';
import { sha256Hex } from '../text/sha';
import { encodedMessage } from './requestEncoding';
import { MESSAGE_OVERHEAD_TOKENS, type TokenEstimator } from '../tokens/tokenEstimator';
import { deepFreeze } from '../deepFreeze';

/** One block's canonical JSON (marker removed), its UTF-8 length and its raw token count. */
export interface EncodedBlock {
  readonly json: string;
  readonly bytes: number;
  readonly rawTokens: number;
  /** The part of `rawTokens` inside long runs without whitespace (calibrated apart; 0 for tool definitions). */
  readonly runTokens: number;
  /**
   * The block as it is sent, without its marker, deep-frozen: a request takes a shallow copy (its top
   * level may get a marker) and shares the rest, which nothing can change.
   */
  readonly sendable: object;
}

/** One message's encoded blocks and what the snapshot needs of it. */
export interface EncodedMessage {
  readonly role: string;
  readonly blocks: readonly EncodedBlock[];
  /** The blocks' JSON, in order (shared with the cache-break detector: never mutated). */
  readonly jsons: readonly string[];
  /** `messageHash` of the message. */
  readonly hash: string;
  /** Message framing plus its blocks, as `TokenEstimator.rawMessage` counts it. */
  readonly rawTokens: number;
  readonly runTokens: number;
  readonly bytes: number;
}

interface BlockEntry {
  /** The block was deep-frozen when encoded: its identity alone vouches for its content. */
  frozen: boolean;
  keys: string[];
  values: unknown[];
  /** Per member: it is an object that was not deep-frozen, so its content must be compared, not its identity. */
  mutable: boolean[];
  result: EncodedBlock;
}

interface MessageEntry {
  role: string;
  blocks: EncodedBlock[];
  result: EncodedMessage;
}

interface LeadEntry {
  lead: EncodedBlock;
  inner: EncodedMessage;
  result: EncodedMessage;
}

const MARKER = 'cache_control';

/**
 * Per-block and per-message encodings remembered by object identity, so a request re-encodes,
 * re-hashes and re-counts only the blocks it has not seen. The loop's conversation entries are
 * deep-frozen and the projection returns them as they are, so for them identity is enough. Other
 * callers (tests, tools, the bench) pass plain objects that may be changed in place between
 * requests: those are reused only when every member is still the same value (strings and
 * primitives compared directly, unfrozen object members by their canonical JSON), so a change is
 * always seen. Keys are weak: entries go when the conversation drops the messages.
 */
export class EncodingMemo {
  private readonly blocks = new WeakMap<object, BlockEntry>();
  private readonly messages = new WeakMap<object, MessageEntry>();
  private readonly leads = new WeakMap<object, LeadEntry>();
  /** Objects found deep-frozen; a frozen object's members cannot change, so this never goes stale. */
  private readonly deepFrozen = new WeakSet<object>();

  constructor(private readonly estimator: TokenEstimator) {}

  /** A content block of a message. */
  block(block: ContentBlock): EncodedBlock {
    return this.encode(block, 'block');
  }

  /** A system block: the tokenizer sees its text. */
  systemBlock(block: { type: 'text'; text: string }): EncodedBlock {
    return this.encode(block, 'system');
  }

  /** A tool definition: the tokenizer sees its canonical JSON. */
  tool(tool: object): EncodedBlock {
    return this.encode(tool, 'json');
  }

  message(message: Message): EncodedMessage {
    const known = this.messages.get(message);
    if (known && this.isDeepFrozen(message)) return known.result;
    const content = message.content as readonly ContentBlock[];
    const blocks: EncodedBlock[] = [];
    for (const block of content) blocks.push(this.encode(block, 'block'));
    if (known && known.role === message.role && sameBlocks(known.blocks, blocks)) return known.result;
    const result = messageOf(message.role, blocks);
    this.messages.set(message, { role: message.role, blocks, result });
    return result;
  }

  /** `message` with `lead` put first (the session date opening the first user message). */
  withLead(lead: ContentBlock, message: Message): EncodedMessage {
    const leadEncoded = this.block(lead);
    const inner = this.message(message);
    const known = this.leads.get(message);
    if (known && known.lead === leadEncoded && known.inner === inner) return known.result;
    const result = messageOf(message.role, [leadEncoded, ...inner.blocks]);
    this.leads.set(message, { lead: leadEncoded, inner, result });
    return result;
  }

  /** True when nothing reachable from `value` can change (strings and primitives, or frozen all the way down). */
  isDeepFrozen(value: unknown): boolean {
    if (value === null || typeof value !== 'object') return true;
    if (this.deepFrozen.has(value)) return true;
    if (!Object.isFrozen(value)) return false;
    for (const inner of Object.values(value)) if (!this.isDeepFrozen(inner)) return false;
    this.deepFrozen.add(value);
    return true;
  }

  private encode(value: object, countedAs: CountedAs): EncodedBlock {
    const known = this.blocks.get(value);
    if (known && (known.frozen || this.stillMatches(known, value))) return known.result;
    const frozen = this.isDeepFrozen(value);
    const bare = withoutMarkerMember(value);
    const json = canonicalRequestJson(bare);
    // A copy of a plain block is the content as encoded now; if the caller changes the block later the entry no longer matches.
    const sendable = frozen ? (bare === value ? value : Object.freeze(bare)) : frozenCopy(bare);
    // Tool definitions are canonical JSON without spaces: their "runs" are ordinary to both tokenizers. A
    // content block counts as the estimator says (an image by the provider's rule, not its base64).
    const count =
      countedAs === 'json'
        ? { tokens: this.estimator.countText(json), runTokens: 0 }
        : countedAs === 'block'
          ? this.estimator.blockParts(value as ContentBlock)
          : this.estimator.countTextParts((value as { text: string }).text);
    const result: EncodedBlock = { json, bytes: utf8Bytes(json), rawTokens: count.tokens, runTokens: count.runTokens, sendable };
    const keys = frozen ? [] : Object.keys(value).filter((key) => key !== MARKER);
    const values = keys.map((key) => (value as Record<string, unknown>)[key]);
    const mutable = values.map((member) => !this.isDeepFrozen(member));
    this.blocks.set(value, { frozen, keys, values, mutable, result });
    return result;
  }

  private stillMatches(entry: BlockEntry, value: object): boolean {
    const record = value as Record<string, unknown>;
    let count = 0;
    for (const key in record) {
      if (!Object.hasOwn(record, key) || key === MARKER) continue;
      const at = count++;
      if (entry.keys[at] !== key) return false;
      const member = record[key];
      if (member !== entry.values[at]) return false;
      // Same object, but it may have been changed inside: compare it with the frozen copy taken when it was encoded.
      if (entry.mutable[at] && !sameJsonContent(member, (entry.result.sendable as Record<string, unknown>)[key])) return false;
    }
    return count === entry.keys.length;
  }
}

function withoutMarkerMember(value: object): object {
  if (!Object.hasOwn(value, MARKER)) return value;
  const { [MARKER]: _marker, ...rest } = value as Record<string, unknown>;
  return rest;
}

/**
 * What the tokenizer sees of an encoded value: a message's content block its `blockCountText`, a
 * system block its text, a tool definition its canonical JSON. (A tag rather than a closure made
 * per call: this runs for every block of every request.)
 */
type CountedAs = 'block' | 'system' | 'json';

/**
 * A deep-frozen copy of JSON data (plain objects, arrays, primitives), made and frozen in one pass;
 * anything else (class instances, typed arrays…) is copied by `structuredClone` as before.
 */
function frozenCopy<T>(value: T): T {
  // structuredClone throws on these, as the copy did before; keep that answer.
  if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = frozenCopy(value[i]);
    return Object.freeze(copy) as T;
  }
  if (!isPlainObject(value)) return deepFreeze(structuredClone(value));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // A JSON-parsed own `__proto__` member must stay a member, not become the copy's prototype.
    if (key === '__proto__') return deepFreeze(structuredClone(value));
    copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
  }
  return Object.freeze(copy) as T;
}

/**
 * True when `now` is plain JSON data (objects, arrays, primitives) equal to `then` member by member,
 * so both encode to the same canonical JSON. Anything else (class instances, a member present on one
 * side only, NaN) answers false, which only costs a re-encoding.
 */
function sameJsonContent(now: unknown, then: unknown): boolean {
  if (now === then) return true;
  if (now === null || then === null || typeof now !== 'object' || typeof then !== 'object') return false;
  if (Array.isArray(now)) {
    if (!Array.isArray(then) || now.length !== then.length) return false;
    for (let i = 0; i < now.length; i++) if (!sameJsonContent(now[i], then[i])) return false;
    return true;
  }
  if (Array.isArray(then) || !isPlainObject(now) || !isPlainObject(then)) return false;
  const keys = Object.keys(now);
  if (keys.length !== Object.keys(then).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(then, key)) return false;
    if (!sameJsonContent((now as Record<string, unknown>)[key], (then as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sameBlocks(before: readonly EncodedBlock[], now: readonly EncodedBlock[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== now[i]) return false;
  return true;
}

function messageOf(role: string, blocks: readonly EncodedBlock[]): EncodedMessage {
  const jsons = blocks.map((block) => block.json);
  let rawTokens = MESSAGE_OVERHEAD_TOKENS;
  let runTokens = 0;
  let bytes = 0;
  for (const block of blocks) {
    rawTokens += block.rawTokens;
    runTokens += block.runTokens;
    bytes += block.bytes;
  }
  const hash = sha256Hex(encodedMessage({ role, blocks: jsons })).slice(0, 8);
  return { role, blocks, jsons, hash, rawTokens, runTokens, bytes };
}
