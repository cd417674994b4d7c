import { describe, expect, it } from 'vitest';
import type { Message, TextBlock, ToolUseBlock } from '../model/types';
import { canonicalBlock } from '../model/canonicalJson';
import { utf8Bytes } from '../text/utf8Bytes';
import { EncodingMemo } from './encodingMemo';
import { messageHash } from './messageHash';
import type { TextTokenCounter } from '../tokens/textTokenCounter';
import { TokenEstimator } from '../tokens/tokenEstimator';
import { deepFreeze } from '../deepFreeze';

/** Counts whitespace-separated words and how many texts it was asked about, so a test can see re-counting. */
class FakeWordCounter implements TextTokenCounter {
  readonly name = 'fake-words';
  calls = 0;
  count(text: string): number {
    this.calls++;
    return text.split(/\s+/).filter(Boolean).length;
  }
}

function setup() {
  const counter = new FakeWordCounter();
  const estimator = new TokenEstimator({ counter });
  return { counter, estimator, memo: new EncodingMemo(estimator) };
}

const exchange = (): Message[] => [
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it now.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'src/a.ts', range: { from: 1, to: 30 } } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '[#1001 src/a.ts lines 1-30]\nconst a = 1;' }] },
];

describe('EncodingMemo', () => {
  it('encodes, hashes and counts as the uncached functions do', () => {
    const { memo, estimator } = setup();
    for (const message of exchange()) {
      const encoded = memo.message(message);
      expect(encoded.hash).toBe(messageHash(message));
      expect(encoded.rawTokens).toBe(estimator.rawMessage(message));
      expect(encoded.jsons).toEqual(message.content.map((block) => canonicalBlock(block)));
      expect(encoded.bytes).toBe(encoded.jsons.reduce((total, json) => total + utf8Bytes(json), 0));
    }
    const lead: TextBlock = { type: 'text', text: 'The session began on 2026-11-30.' };
    const first = exchange()[1]!;
    const withLead = memo.withLead(lead, first);
    expect(withLead.hash).toBe(messageHash({ role: 'user', content: [lead, ...first.content] } as Message));
    expect(withLead.rawTokens).toBe(estimator.rawMessage(first) + estimator.rawBlock(lead));
  });

  it('reuses a frozen message by identity and shares its frozen blocks', () => {
    const { memo, counter } = setup();
    const [assistant] = deepFreeze(exchange());
    const once = memo.message(assistant!);
    const calls = counter.calls;
    expect(memo.message(assistant!)).toBe(once);
    expect(counter.calls).toBe(calls);
    // Frozen blocks cannot change, so what is sent is the block itself.
    expect(once.blocks[1]!.sendable).toBe(assistant!.content[1]);
  });

  it('reuses an unchanged plain block but sees every change made in place', () => {
    const { memo } = setup();
    const [assistant, user] = exchange();
    const first = memo.message(assistant!);
    expect(memo.message(assistant!)).toBe(first);

    // A nested change inside a tool call's input.
    const call = assistant!.content[1] as ToolUseBlock;
    (call.input as { range: { to: number } }).range.to = 31;
    const second = memo.message(assistant!);
    expect(second.hash).not.toBe(first.hash);
    expect(second.hash).toBe(messageHash(assistant!));
    // A member added deep inside, then an array grown in place.
    const input = call.input as { range: Record<string, unknown>; tags?: string[] };
    input.range.step = 2;
    const third = memo.message(assistant!);
    expect(third.hash).not.toBe(second.hash);
    input.tags = ['a'];
    const fourth = memo.message(assistant!);
    input.tags.push('b');
    expect(memo.message(assistant!).hash).not.toBe(fourth.hash);
    expect(memo.message(assistant!).hash).toBe(messageHash(assistant!));

    // A string replaced, a member added, a block appended.
    const result = user!.content[0]!;
    const before = memo.message(user!).hash;
    if (result.type === 'tool_result') result.content = '[#1001 src/a.ts] (elided)';
    const replaced = memo.message(user!).hash;
    expect(replaced).not.toBe(before);
    if (result.type === 'tool_result') result.is_error = true;
    const flagged = memo.message(user!).hash;
    expect(flagged).not.toBe(replaced);
    user!.content.push({ type: 'text', text: 'Next task' });
    expect(memo.message(user!).hash).toBe(messageHash(user!));
    expect(memo.message(user!).hash).not.toBe(flagged);
  });

  it('ignores a cache_control marker, as the encoding does', () => {
    const { memo } = setup();
    const [, user] = exchange();
    const plain = memo.message(user!);
    const block = user!.content[0]!;
    if (block.type === 'tool_result') block.cache_control = { type: 'ephemeral' };
    const marked = memo.message(user!);
    expect(marked).toBe(plain);
    expect(marked.blocks[0]!.sendable).not.toHaveProperty('cache_control');
  });

  it('keeps what is sent as it was encoded when the caller changes a plain block afterwards', () => {
    const { memo } = setup();
    const [assistant] = exchange();
    const sendable = memo.message(assistant!).blocks[1]!.sendable as ToolUseBlock;
    ((assistant!.content[1] as ToolUseBlock).input as { path: string }).path = 'changed later';
    expect(sendable.input).toEqual({ path: 'src/a.ts', range: { from: 1, to: 30 } });
    expect(Object.isFrozen(sendable.input)).toBe(true);
  });

  it('copies plain input member for member: arrays, nulls, nested objects and a parsed __proto__ member', () => {
    const { memo } = setup();
    const input = JSON.parse('{"list":[1,{"deep":[null,"x"]}],"__proto__":{"kept":true},"empty":{}}') as Record<string, unknown>;
    const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_2', name: 'run', input };
    const encoded = memo.block(block);
    const sent = (encoded.sendable as ToolUseBlock).input as Record<string, unknown>;
    expect(sent).not.toBe(input);
    expect(JSON.stringify(sent)).toBe(JSON.stringify(input));
    expect(Object.hasOwn(sent, '__proto__')).toBe(true);
    expect(Object.isFrozen((sent.list as unknown[])[1])).toBe(true);
    expect(encoded.json).toBe(canonicalBlock(block));
  });
});
