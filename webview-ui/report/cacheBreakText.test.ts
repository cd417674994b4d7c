import { describe, expect, it } from 'vitest';
import type { RequestSnapshot } from '../../src/core/compose/snapshot';
import { snapshotViewOf } from '../../src/host/snapshotView';
import type { RequestSnapshotView } from '../../src/shared/protocol';
import { cacheBreakText } from './cacheBreakText';

function snapshot(cacheBreak: RequestSnapshot['cacheBreak']): RequestSnapshot {
  return {
    version: 1,
    index: 3,
    time: '2026-12-01T00:00:00.000Z',
    model: 'm',
    generation: 0,
    purpose: 'main',
    maxTokens: 100,
    sources: [],
    bytes: { tools: 0, system: 0, messages: 0, total: 0 },
    toolDefinitionBytes: 0,
    messageCount: 2,
    messageHashes: ['aaaaaaaa', 'bbbbbbbb'],
    breakpoints: [],
    estimate: { rawTokens: 0, tokens: 0, runTokens: 0, ratio: 1, runRatio: 1, strategy: 'o200k_base', confidence: 'low' },
    decisions: [],
    cacheBreak,
    usage: null,
    cacheHitShare: null,
    cost: null,
  };
}

describe('the cache break the context report shows', () => {
  it('a tool description change names the tool, not "message 0" with a message hash', () => {
    const view = snapshotViewOf(
      snapshot({
        zone: 'tools',
        index: 0,
        block: null,
        where: 'tools: the description of `bash` changed',
        reason: 'tools: the description of `bash` changed: first difference at character 9: "x" became "y"',
      }),
    );
    expect(cacheBreakText(view)).toEqual({
      headline: 'tools: the description of `bash` changed',
      evidence: 'first difference at character 9: "x" became "y"',
      messageHash: null,
    });
  });

  it('a system block names its index and source', () => {
    const view = snapshotViewOf(
      snapshot({
        zone: 'system',
        index: 2,
        block: null,
        where: 'system block 2 (rules AGENTS.md) changed',
        reason: 'system block 2 (rules AGENTS.md) changed: first difference at character 40',
      }),
    );
    expect(cacheBreakText(view)).toMatchObject({ headline: 'system block 2 (rules AGENTS.md) changed', messageHash: null });
  });

  it('a message break keeps its message hash; an older journalled break gets a location', () => {
    const message = snapshotViewOf(
      snapshot({
        zone: 'messages',
        index: 1,
        block: 0,
        where: 'message 1 (assistant) block 0 (text) changed',
        reason: 'message 1 (assistant) block 0 (text) changed: first difference at character 3',
      }),
    );
    expect(cacheBreakText(message)).toEqual({
      headline: 'message 1 (assistant) block 0 (text) changed',
      evidence: 'first difference at character 3',
      messageHash: 'bbbbbbbb',
    });
    const older = snapshotViewOf(
      snapshot({ zone: 'system', index: 1, block: null, reason: 'system block 1 changed: first difference at character 0' }),
    );
    expect(cacheBreakText(older)).toMatchObject({ headline: 'system block 1 changed', messageHash: null });
  });

  it('a view from an older host (no zone or where) reads as before', () => {
    const view = {
      ...snapshotViewOf(snapshot(null)),
      cacheBreak: { index: 0, reason: 'compaction started generation 1' },
    } satisfies RequestSnapshotView;
    expect(cacheBreakText(view)).toEqual({
      headline: 'at message 0',
      evidence: 'compaction started generation 1',
      messageHash: 'aaaaaaaa',
    });
  });
});
