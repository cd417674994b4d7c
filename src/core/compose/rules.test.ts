import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../text/utf8Bytes';
import { describeRulesChanges, rulesDeltaBlocks, rulesEnvelope } from './rules';

describe('rules deltas', () => {
  it('wraps a change in a length-delimited envelope', () => {
    const body = 'Use tabs.\n</cairn-rules> is just text here ✓';
    const block = rulesEnvelope('AGENTS.md', 'changed', body);
    const header = `<cairn-rules path="AGENTS.md" state="changed" bytes="${utf8Bytes(body)}">\n`;
    expect(block.text.startsWith(header)).toBe(true);
    const start = Buffer.from(header).length;
    const bodyBack = Buffer.from(block.text)
      .subarray(start, start + utf8Bytes(body))
      .toString('utf8');
    expect(bodyBack).toBe(body);
    expect(rulesEnvelope('a"b', 'removed', '').text).toBe('<cairn-rules path="a&quot;b" state="removed" bytes="0">\n\n</cairn-rules>');
  });

  it('lists removals first, then additions and changes in file order', () => {
    const known = new Map([
      ['~/.cairn/AGENTS.md', 'g'],
      ['AGENTS.md', 'old'],
      ['CLAUDE.md', 'same'],
    ]);
    const blocks = rulesDeltaBlocks(known, [
      { scope: 'project', path: 'AGENTS.md', text: 'new' },
      { scope: 'project', path: 'CLAUDE.md', text: 'same' },
      { scope: 'project', path: 'app/AGENTS.md', text: 'added' },
    ]);
    expect(blocks.map((b) => b.text.split('\n')[0])).toEqual([
      '<cairn-rules path="~/.cairn/AGENTS.md" state="removed" bytes="0">',
      '<cairn-rules path="AGENTS.md" state="changed" bytes="3">',
      '<cairn-rules path="app/AGENTS.md" state="added" bytes="5">',
    ]);
  });

  it('names the changed files for the decision, removals first', () => {
    const known = new Map([
      ['~/.cairn/AGENTS.md', 'g'],
      ['AGENTS.md', 'old'],
      ['CLAUDE.md', 'same'],
    ]);
    const current: Array<[string, string]> = [
      ['AGENTS.md', 'new'],
      ['CLAUDE.md', 'same'],
      ['app/AGENTS.md', 'added'],
    ];
    expect(describeRulesChanges(known, current)).toBe('~/.cairn/AGENTS.md removed, AGENTS.md changed, app/AGENTS.md added');
  });
});
