import { describe, expect, it } from 'vitest';
import { capabilitiesOf, documentedCapabilities } from './modelCapabilities';
import { thinkingFields } from './thinking';
import type { ModelCapabilities } from './types';

const budgetOnly: ModelCapabilities = { thinking: { enabled: true, adaptive: false }, effort: [] };
const adaptiveOnly: ModelCapabilities = { thinking: { enabled: false, adaptive: true }, effort: ['low', 'medium', 'high', 'max'] };
const both: ModelCapabilities = { thinking: { enabled: true, adaptive: true }, effort: ['low', 'medium', 'high'] };

describe('thinkingFields', () => {
  it('off sends nothing; auto is adaptive where the model has it, else half of max_tokens as a budget', () => {
    expect(thinkingFields('off', 'auto', both, 'm', 16_000)).toEqual({ notes: [] });
    expect(thinkingFields('auto', 'auto', both, 'm', 16_000)).toEqual({ thinking: { type: 'adaptive' }, notes: [] });
    expect(thinkingFields('auto', 'auto', budgetOnly, 'm', 16_000)).toEqual({
      thinking: { type: 'enabled', budget_tokens: 8000 },
      notes: [],
    });
  });

  it('a budget stays below max_tokens, and none is sent when max_tokens leaves no room for the API floor', () => {
    expect(thinkingFields(4096, 'auto', both, 'm', 16_000).thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const lowered = thinkingFields(32_000, 'auto', both, 'm', 16_000);
    expect(lowered.thinking).toEqual({ type: 'enabled', budget_tokens: 15_999 });
    expect(lowered.notes).toEqual(['cairn.thinking 32000 is not below max_tokens (16000); the budget sent is 15999.']);
    const none = thinkingFields(2048, 'auto', both, 'm', 1024);
    expect(none.thinking).toBeUndefined();
    expect(none.notes[0]).toContain('Raise cairn.maxTokens');
  });

  it('a budget on a model that only thinks adaptively is sent as adaptive, with a note', () => {
    const fields = thinkingFields(4096, 'auto', adaptiveOnly, 'claude-opus-4-7', 16_000);
    expect(fields.thinking).toEqual({ type: 'adaptive' });
    expect(fields.notes[0]).toContain('takes no budget');
  });

  it('effort goes only to a model that takes that level', () => {
    expect(thinkingFields('off', 'max', adaptiveOnly, 'm', 16_000)).toEqual({ output_config: { effort: 'max' }, notes: [] });
    expect(thinkingFields('off', 'max', both, 'm', 16_000).notes).toEqual([
      'm takes effort low, medium, high, not "max"; cairn.effort is not sent.',
    ]);
    expect(thinkingFields('off', 'low', budgetOnly, 'm', 16_000)).toEqual({
      notes: ['m takes no effort setting; cairn.effort "low" is not sent.'],
    });
  });
});

describe('model capabilities', () => {
  it('reads the Models API capabilities field by field, and refuses a shape it cannot read', () => {
    const supported = { supported: true };
    const no = { supported: false };
    expect(
      capabilitiesOf({
        thinking: { supported: true, types: { enabled: no, adaptive: supported } },
        effort: { supported: true, low: supported, medium: supported, high: supported, xhigh: no, max: supported },
      }),
    ).toEqual({ thinking: { enabled: false, adaptive: true }, effort: ['low', 'medium', 'high', 'max'] });
    expect(capabilitiesOf(null)).toBeNull();
    expect(capabilitiesOf({ thinking: 'yes' })).toBeNull();
  });

  it('goes by the documented family when the server does not say', () => {
    expect(documentedCapabilities('claude-sonnet-4-5-20250929').thinking).toEqual({ enabled: true, adaptive: false });
    expect(documentedCapabilities('claude-sonnet-4-6').thinking).toEqual({ enabled: true, adaptive: true });
    expect(documentedCapabilities('claude-opus-4-7').thinking).toEqual({ enabled: false, adaptive: true });
    expect(documentedCapabilities('us.anthropic.claude-opus-4-6-v1').thinking).toEqual({ enabled: true, adaptive: true });
    expect(documentedCapabilities('claude-mythos-preview').thinking).toEqual({ enabled: false, adaptive: true });
    expect(documentedCapabilities('qwen3-coder:30b')).toEqual({ thinking: { enabled: true, adaptive: false }, effort: [] });
  });
});
