import { describe, expect, it } from 'vitest';
import { Composer } from './composer';
import { emptyProjectContext } from './projectContextSource';
import { noRules } from './rules';
import { formatSnapshotReport } from './snapshotReport';
import { DecisionQueue } from './decisions';

describe('formatSnapshotReport', () => {
  it('shows each request with estimate, reported usage, sources, decisions and breaks, then totals', async () => {
    const composer = new Composer({
      decisions: new DecisionQueue(),
      tools: [],
      preamble: 'You are Cairn.',
      rules: noRules,
      projectContext: emptyProjectContext,
      sessionDate: '2026-11-30',
    });
    await composer.prepare();
    const first = composer.compose({
      model: 'claude-sonnet-4-5',
      maxTokens: 100,
      generation: 0,
      purpose: 'main',
      conversation: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      decisions: [{ kind: 'stub', detail: 'unchanged re-read of src/app.ts', resultIds: ['#a3f2'] }],
    });
    const observed = composer.observeUsage(first.snapshot, {
      input_tokens: 10,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 70,
      output_tokens: 5,
    });
    const second = composer.compose({
      model: 'claude-sonnet-4-5',
      maxTokens: 100,
      generation: 0,
      purpose: 'main',
      conversation: [{ role: 'user', content: [{ type: 'text', text: 'rewritten' }] }],
      decisions: [],
    });
    const report = formatSnapshotReport([observed, second.snapshot]);
    expect(report).toContain('#0  gen 0  main  claude-sonnet-4-5  1 messages');
    expect(report).toContain('reported 100 = 10 uncached + 20 written + 70 read');
    expect(report).toContain('hit 70.0%');
    expect(report).toMatch(/#1 .*estimate \d+ \(raw \d+, provider_usage, medium, ×\d\.\d{3} text\)/);
    expect(report).toContain('stub: unchanged re-read of src/app.ts [#a3f2]');
    expect(report).toContain('CACHE BREAK at message 0 (user) block 1 (text) changed: first difference at character');
    expect(report.split('\n').at(-1)).toMatch(
      /^2 requests, 1 cache breaks, prompt tokens 100, cache-hit share 70\.0%, cost \$0\.\d{4} \(1 requests unpriced\)$/,
    );
  });
});
