/** The contrast check the browser suites share (text on what is really behind it, in every theme kind). */
import type { Locator } from 'playwright-core';

/** WCAG's contrast ratio of an element's text on what is really behind it (ancestors' backgrounds composited). */
export function contrastOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (css: string): Rgba => {
      const parts = (/rgba?\(([^)]*)\)/.exec(css)?.[1] ?? '0 0 0 0')
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return { r: parts[0] ?? 0, g: parts[1] ?? 0, b: parts[2] ?? 0, a: parts[3] ?? 1 };
    };
    const over = (top: Rgba, under: Rgba): Rgba => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const chain: Element[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) chain.unshift(e);
    let background: Rgba = { r: 255, g: 255, b: 255, a: 1 };
    for (const e of chain) background = over(parse(getComputedStyle(e).backgroundColor), background);
    const text = over(parse(getComputedStyle(element).color), background);
    const luminance = (c: Rgba) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  });
}
