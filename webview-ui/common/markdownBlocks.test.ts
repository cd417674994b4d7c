import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './markdownBlocks';
import { renderMarkdown } from './renderMarkdown';

const render = (source: string) => renderMarkdown(source, { has: () => true });

/** Model-style answers with every construct that spans blank lines or could be split wrongly. */
const SAMPLES: readonly string[] = [
  'One paragraph.\n\nAnother with **bold** and `#a3f2`.\n\n## Heading\n\nText after.',
  '- tight\n- list\n\nParagraph after the list.',
  '- loose\n\n- list\n\n  continued inside the item\n\nAfter.',
  '1. first\n\n2. second\n3) third\n\nend',
  '```ts\nconst a = 1;\n\nconst b = 2;\n\nexport { a };\n```\n\nAfter the fence.',
  '````md\n```\ninner\n\nstill inner\n```\n\n````\n\nout',
  '~~~\nfence\n\n```\nnot a close\n~~~\n\nafter',
  '    indented code\n\n    more code\n\nparagraph',
  '> quote\n\n> another quote\n\ntext',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\nBelow the table.',
  'Para\n\n---\n\nAfter a rule.\n\n***\n\nSetext\n===\n\nend',
  'See [the docs][ref].\n\nMore.\n\n[ref]: https://example.com',
  'A line with ``` backticks ``` inline\n\nnext',
  '- item\n\n      code in item\n\nout\n\n* star\n\n+ plus',
  'Unfinished fence:\n\n```js\nlet x = 1;\n\nlet y',
  'Trailing blank lines\n\n\n\n',
  '\n\nLeading blank lines\n\ntext',
  'Stream in progres',
  'word1 and **more** text, word2 and **more** text,\n\n```ts\nconst x39 = 39;\n```\n\nword40 and **mo',
];

describe('splitMarkdownBlocks', () => {
  it('keeps every character: the pieces join back to the source', () => {
    for (const sample of SAMPLES) expect(splitMarkdownBlocks(sample).join('')).toBe(sample);
  });

  it('renders each piece alone exactly as the whole renders', () => {
    for (const sample of SAMPLES) {
      expect(splitMarkdownBlocks(sample).map(render).join(''), sample).toBe(render(sample));
    }
  });

  it('renders every prefix of a streamed answer the same way, as a stream sees it', () => {
    for (const sample of SAMPLES) {
      for (let end = 0; end <= sample.length; end += 3) {
        const prefix = sample.slice(0, end);
        expect(splitMarkdownBlocks(prefix).map(render).join(''), JSON.stringify(prefix)).toBe(render(prefix));
      }
    }
  });

  it('splits paragraphs and fences apart but not the inside of a fence or a list', () => {
    expect(splitMarkdownBlocks('a\n\nb')).toEqual(['a\n\n', 'b']);
    expect(splitMarkdownBlocks('```\na\n\nb\n```\n\nc')).toEqual(['```\na\n\nb\n```\n\n', 'c']);
    expect(splitMarkdownBlocks('- a\n\n- b')).toEqual(['- a\n\n- b']);
  });

  it('renders generated documents the same in pieces as whole (seeded, lists, fences at every indent, tables, quotes)', () => {
    const LINES = [
      '',
      '',
      '',
      'text here',
      'more *em* text',
      '- item',
      '  - nested',
      '1. one',
      '   continued',
      '```',
      '```js',
      '   ```',
      '  ```',
      '~~~',
      '    code',
      '> quote',
      '---',
      '| a | b |',
      '|---|---|',
      '# Head',
      'x',
      '`#a3f2`',
      '* star',
      '+ plus',
      '\tTab',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let split = 0;
    for (let n = 0; n < 3000; n++) {
      const doc = Array.from({ length: 3 + Math.floor(next() * 14) }, () => LINES[Math.floor(next() * LINES.length)]).join('\n');
      const pieces = splitMarkdownBlocks(doc);
      if (pieces.length > 1) split++;
      expect(pieces.map(render).join(''), JSON.stringify(doc)).toBe(render(doc));
    }
    expect(split).toBeGreaterThan(1000);
  });

  it('keeps text with a link reference definition whole', () => {
    expect(splitMarkdownBlocks('[x][r]\n\n[r]: https://example.com')).toHaveLength(1);
  });
});
