import { describe, expect, it } from 'vitest';
import markdownIt from 'markdown-it';
import { renderMarkdown } from './renderMarkdown';

const GIVEN: ReadonlySet<string> = new Set(['#a3f2', '#b710', '#c9d0', '#dead']);

describe('renderMarkdown', () => {
  it('never passes raw HTML through', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<iframe src="https://x"></iframe>', GIVEN);
    expect(html).not.toMatch(/<img|<script|<iframe/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('makes links only for http(s), and no images at all', () => {
    const html = renderMarkdown(
      '[a](javascript:alert(1)) [b](command:workbench.action.terminal.new) [c](file:///etc/passwd) [d](vscode://x) [e](https://example.com/) ![f](https://example.com/f.png)',
      GIVEN,
    );
    expect(html.match(/<a /g)).toHaveLength(2);
    expect(html).toContain('<a href="https://example.com/" class="md-link" title="https://example.com/">e</a>');
    expect(html).toContain('<a href="https://example.com/f.png"');
    expect(html).not.toMatch(/<img|href="javascript|href="command|href="file|href="vscode/);
  });

  it('links ids in text, inline code and code blocks, but not inside a link', () => {
    const html = renderMarkdown('See #a3f2 and `#b710`.\n\n```\nfull output #c9d0\n```\n\n[#dead](https://example.com)', GIVEN);
    expect(html.match(/data-recall-id="#a3f2"/g)).toHaveLength(1);
    expect(html).toContain('<code><button type="button" class="recall-link" data-recall-id="#b710"');
    expect(html).toContain('<pre class="md-code"><code>full output <button type="button" class="recall-link" data-recall-id="#c9d0"');
    expect(html).not.toContain('data-recall-id="#dead"');
  });

  it('links only ids the session gave, in text, inline code and code blocks', () => {
    const html = renderMarkdown('Given #a3f2, quoted #beef, `#c0ffee`\n\n```\n#facade\n```', new Set(['#a3f2']));
    expect(html.match(/data-recall-id=/g)).toHaveLength(1);
    expect(html).toContain('data-recall-id="#a3f2"');
    expect(html).toContain('quoted #beef');
    expect(html).toContain('<code>#c0ffee</code>');
    expect(html).toContain('<code>#facade\n</code>');
  });

  it('renders the files table with its ids as links', () => {
    const html = renderMarkdown(
      '| Path | Lines | sha | Result |\n|---|---|---|---|\n| src/app.ts | 1-200 of 340 | 1c9e04ab | #a3f2 |',
      GIVEN,
    );
    expect(html).toContain('<table>');
    expect(html).toContain('data-recall-id="#a3f2"');
  });
});

describe('renderMarkdown work', () => {
  /**
   * Counts reads of `token.type` during a render (an accessor on markdown-it's Token prototype): a measure
   * of work that does not depend on the machine's speed. Linked text once rescanned every earlier token
   * for each text token, so 4x the text cost 16x the work.
   */
  function typeReads(source: string): number {
    const md = markdownIt();
    const state = new md.core.State('', md, {}) as unknown as { Token: { prototype: object } };
    const TokenProto = state.Token.prototype;
    const values = new WeakMap<object, unknown>();
    let reads = 0;
    Object.defineProperty(TokenProto, 'type', {
      configurable: true,
      get(this: object) {
        reads++;
        return values.get(this);
      },
      set(this: object, value: unknown) {
        values.set(this, value);
      },
    });
    try {
      renderMarkdown(source, GIVEN);
    } finally {
      delete (TokenProto as { type?: unknown }).type;
    }
    return reads;
  }

  it('is linear in the length of one paragraph of linked text', () => {
    const paragraph = (n: number) => 'see [the docs](https://example.com/a) and #a3f2 then '.repeat(n);
    const small = typeReads(paragraph(400));
    const large = typeReads(paragraph(1600));
    expect(small).toBeGreaterThan(0);
    // Linear work grows 4x; the quadratic scan grew about 16x.
    expect(large / small).toBeLessThan(6);
  });
});
