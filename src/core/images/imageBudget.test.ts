import { describe, expect, it } from 'vitest';
import { fittedSize, imageBracket, imageTokens, IMAGE_LIMITS } from './imageBudget';

describe('the provider image rule', () => {
  it("counts width × height / 750, as the vision docs' examples do", () => {
    expect(imageTokens({ width: 200, height: 200 })).toBe(54);
    expect(imageTokens({ width: 1000, height: 1000 })).toBe(1334);
    expect(imageTokens({ width: 1092, height: 1092 })).toBe(1590);
  });

  it('keeps an image within the limits as it is, and scales a larger one to fit both the long edge and the token limit', () => {
    expect(fittedSize({ width: 1280, height: 720 })).toEqual({ width: 1280, height: 720, scaled: false });
    const wide = fittedSize({ width: 3000, height: 300 });
    expect(wide).toEqual({ width: 1568, height: 156, scaled: true });
    const screen = fittedSize({ width: 3840, height: 2160 });
    expect(screen.scaled).toBe(true);
    expect(imageTokens(screen)).toBeLessThanOrEqual(IMAGE_LIMITS.tokens);
    expect(Math.abs(screen.width / screen.height - 3840 / 2160)).toBeLessThan(0.01);
  });

  it('names an image in one line', () => {
    expect(imageBracket('#a3f2', 'shot.png', { width: 1280, height: 720 })).toBe('[#a3f2 image shot.png 1280×720, ~1,229 tokens]');
  });
});
