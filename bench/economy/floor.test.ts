import { describe, expect, it } from 'vitest';
import { floorOf, type FloorBlock } from './floor';

const block = (prefixHash: string, tokens: number, body?: string, headTokens = 2): FloorBlock =>
  body === undefined ? { prefixHash, tokens } : { prefixHash, tokens, result: { body, headTokens } };

describe('floorOf', () => {
  it('writes each new block once and reads every carried prefix from the cache; the last request is sent plain', () => {
    const a = block('a', 100);
    const b = block('b', 50);
    const c = block('c', 30);
    const figures = floorOf([
      { generation: 0, blocks: [a] },
      { generation: 0, blocks: [a, b] },
      { generation: 0, blocks: [a, b, c] },
    ]);
    expect(figures.written).toBe(150);
    expect(figures.read).toBe(100 + 150);
    expect(figures.uncached).toBe(30);
    expect(figures.inputTokens).toBe(100 + 150 + 180);
    expect(figures.billed).toBeCloseTo(30 + 1.25 * 150 + 0.1 * 250);
  });

  it('counts content repeated in another place only by its bracket line, but not the same block carried again', () => {
    const first = block('x1', 500, 'file body');
    const again = block('x2', 505, 'file body', 7);
    const figures = floorOf([
      { generation: 0, blocks: [first] },
      { generation: 0, blocks: [first, again] },
      { generation: 0, blocks: [first, again, block('end', 1)] },
    ]);
    // Request 1 writes 500; request 2 reads 500 and writes 7; request 3 reads 507 and sends 1 plain.
    expect(figures.written).toBe(507);
    expect(figures.read).toBe(500 + 507);
    expect(figures.uncached).toBe(1);
  });

  it('needs content again after a compaction (a new generation forgets what was sent)', () => {
    const body = block('p1', 400, 'same body');
    const afterCompaction = block('q1', 400, 'same body');
    const figures = floorOf([
      { generation: 0, blocks: [body] },
      { generation: 1, blocks: [afterCompaction] },
      { generation: 1, blocks: [afterCompaction, block('q2', 1)] },
    ]);
    expect(figures.written).toBe(800);
  });

  it('stops reading at the first block no earlier request had (a rewritten history is written again)', () => {
    const figures = floorOf([
      { generation: 0, blocks: [block('a', 10), block('b', 10)] },
      { generation: 0, blocks: [block('a', 10), block('b2', 10), block('c', 10)] },
      { generation: 0, blocks: [block('z', 1)] },
    ]);
    expect(figures.read).toBe(10);
    expect(figures.written).toBe(20 + 20);
  });

  it('reports the cache-hit share a perfect cache reaches over the requests that count for it', () => {
    const figures = floorOf([
      { generation: 0, blocks: [block('a', 100)] },
      { generation: 0, blocks: [block('a', 100), block('b', 100)], countsForShare: true },
      { generation: 0, blocks: [block('a', 100), block('b', 100), block('c', 200)], countsForShare: true },
    ]);
    // Counted: request 2 reads 100 of 200, request 3 reads 200 of 400.
    expect(figures.cacheHitShare).toBeCloseTo(300 / 600);
  });
});
