import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../webview-ui/common/renderMarkdown';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';

/**
 * Issue 9: apply_patch and the webview's Markdown renderer with adversarial input.
 * apply_patch: a patch that fails changes nothing (the whole patch is fitted before anything is written);
 * none throws. Markdown: whatever the model writes, the HTML has only the renderer's own tags and
 * attributes, links are http(s) only, no images, no raw HTML, no inline handlers.
 */
export const PATCH_RUNS = 1_500;
/** Every id counts as given, so hostile text exercises the recall links too. */
const EVERY_ID = { has: () => true };
export const MARKDOWN_RUNS = 2_000;
const SEED = Number(process.env.CAIRN_FUZZ_SEED ?? 77);

async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else
        out[relative(root, path)] = entry.isSymbolicLink() ? `-> ${await fs.readlink(path)}` : (await fs.readFile(path)).toString('base64');
    }
  }
  await walk(root);
  return out;
}

describe('apply_patch with adversarial patches', () => {
  let rig: LedgerRig;
  const START = {
    'a.txt': 'one\ntwo\nthree\n',
    'crlf.txt': 'x\r\ny\r\n',
    'dir/b.ts': 'let b = 1;\nlet c = 2;\n',
    'bin.dat': '\0\x01binary',
  };
  beforeAll(async () => {
    rig = await startLedgerRig({ files: START });
    await fs.symlink('/etc/hostname', join(rig.root, 'out-link'));
  });
  afterAll(async () => rig?.close());

  const pathArb = fc.constantFrom(
    'a.txt',
    'crlf.txt',
    'dir/b.ts',
    'bin.dat',
    'new.txt',
    'dir/new/deep.txt',
    '../escape.txt',
    '/tmp/abs.txt',
    'out-link',
    'dir',
    '',
    ' ',
    'a.txt\0x',
    'C:\\x',
    'dir/../a.txt',
  );
  const bodyLine = fc.oneof(
    fc.constantFrom(
      '+added',
      '-one',
      '-two',
      ' two',
      ' three',
      '-x',
      '+y',
      '',
      ' ',
      '@@',
      '@@ let b = 1;',
      '*** End of File',
      '-let c = 2;',
      '+let c = 3;',
      '+\0',
      '+\u{1F600}',
      '-\r',
      '+' + 'z'.repeat(5000),
    ),
    fc.string({ maxLength: 12 }).map((s) => ' ' + s),
  );
  const opArb = fc.oneof(
    fc.record({ h: fc.constant('*** Add File: '), p: pathArb, body: fc.array(bodyLine, { maxLength: 6 }) }),
    fc.record({ h: fc.constant('*** Delete File: '), p: pathArb, body: fc.constant<string[]>([]) }),
    fc.record({ h: fc.constant('*** Update File: '), p: pathArb, body: fc.array(bodyLine, { maxLength: 8 }), move: fc.option(pathArb) }),
  );
  const patchArb = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({
          ops: fc.array(opArb, { maxLength: 4 }),
          begin: fc.constantFrom('*** Begin Patch', '*** Begin Patch ', '*** begin patch', ''),
          end: fc.constantFrom('*** End Patch', '', '*** End Patch\n*** End Patch'),
          crlf: fc.boolean(),
        })
        .map(({ ops, begin, end, crlf }) => {
          const lines: string[] = [begin];
          for (const op of ops) {
            lines.push(op.h + op.p);
            if ('move' in op && op.move !== null && op.move !== undefined) lines.push(`*** Move to: ${op.move}`);
            lines.push(...op.body);
          }
          lines.push(end);
          return lines.join(crlf ? '\r\n' : '\n');
        }),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );

  /** Patches whose first operations fit and a later one fails, at fitting or at writing: nothing may stay written. */
  async function partFailing(): Promise<number> {
    const cases = [
      '*** Begin Patch\n*** Add File: fresh1.txt\n+new\n*** Update File: a.txt\n@@\n-not in the file\n+x\n*** End Patch',
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Delete File: missing.txt\n*** End Patch',
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: a.txt/under-a-file.txt\n+x\n*** End Patch',
      '*** Begin Patch\n*** Delete File: dir/b.ts\n*** Add File: ../escape.txt\n+x\n*** End Patch',
      '*** Begin Patch\n*** Update File: crlf.txt\n@@\n-x\n+X\n*** Update File: bin.dat\n@@\n-y\n+z\n*** End Patch',
    ];
    for (const patch of cases) {
      const before = await tree(rig.root);
      const r = await rig.ledger.execute({ callId: 'pf', name: 'apply_patch', input: { patch } });
      expect(r.isError, patch).toBe(true);
      expect(await tree(rig.root), `part of a failing patch stayed written: ${r.text}`).toEqual(before);
    }
    return 0;
  }

  it(`${PATCH_RUNS} adversarial patches: none throws, and a refused patch changes nothing`, async () => {
    const tally = { applied: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(patchArb, async (patch) => {
        const before = await tree(rig.root);
        const r = await rig.ledger.execute({ callId: 'p', name: 'apply_patch', input: { patch } });
        expect(r.text.startsWith(`[${r.id}`)).toBe(true);
        if (r.isError) {
          tally.refused++;
          expect(r.text.length).toBeGreaterThan(`[${r.id}] `.length);
          expect(await tree(rig.root), `refused patch changed files: ${r.text.slice(0, 200)}`).toEqual(before);
        } else {
          tally.applied++;
        }
        // Nothing ever leaves the root, whatever was applied.
        await expect(fs.access(join(rig.dir, 'escape.txt'))).rejects.toThrow();
        await expect(fs.access('/tmp/abs.txt')).rejects.toThrow();
        expect(await fs.readFile('/etc/hostname', 'utf8')).not.toContain('added');
      }),
      { numRuns: PATCH_RUNS, seed: SEED },
    );
    expect(tally.applied).toBeGreaterThan(0);
    tally.applied += await partFailing();
    console.info(`apply_patch: ${PATCH_RUNS} adversarial patches, ${tally.applied} applied, ${tally.refused} refused with nothing changed`);
  }, 240_000);
});

describe('Markdown with adversarial input', () => {
  const ALLOWED_TAGS = new Set([
    'p',
    'em',
    'strong',
    's',
    'code',
    'pre',
    'a',
    'button',
    'ul',
    'ol',
    'li',
    'blockquote',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'br',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    // A fenced code block's frame (issue 17 item 18): its bar, language label and buttons, and highlight.js's spans.
    'div',
    'span',
  ]);
  const ALLOWED_ATTRS = new Set([
    'href',
    'class',
    'title',
    'type',
    'data-recall-id',
    'start',
    'style',
    'data-language',
    'data-code-action',
  ]);

  /** Every tag and attribute the HTML carries, checked against what the renderer may produce. */
  function problems(html: string): string[] {
    const found: string[] = [];
    for (const tag of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
      const name = tag[1]!.toLowerCase();
      if (!ALLOWED_TAGS.has(name)) found.push(`tag <${name}>`);
      for (const attr of tag[2]!.matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
        const key = attr[1]!.toLowerCase();
        if (!ALLOWED_ATTRS.has(key)) found.push(`attribute ${key} on <${name}>`);
        if (key === 'href' && !/^https?:\/\//i.test(attr[2] ?? '')) found.push(`href ${attr[2]}`);
        if (key === 'style' && !/^text-align:(left|right|center)$/.test(attr[2] ?? '')) found.push(`style ${attr[2]}`);
      }
    }
    if (/javascript:/i.test(html.replace(/&[a-z]+;|&#\d+;/g, '')) && /href="[^"]*javascript:/i.test(html)) found.push('javascript: href');
    return found;
  }

  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x]( javascript:alert(1) )',
    '[x](java\tscript:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](data:text/html,<script>alert(1)</script>)',
    '[x](vbscript:x)',
    '[x](command:workbench.action.terminal.new)',
    '[x](file:///etc/passwd)',
    '![i](http://evil.example/x.png)',
    '<javascript:alert(1)>',
    '<http://ok.example>',
    '[r]: javascript:alert(1)\n\n[x][r]',
    '<iframe src="http://evil">',
    '<div onclick="x">',
    '<style>*{}</style>',
    '"><svg/onload=alert(1)>',
    '`<script>`',
    '```\n<script>\n```',
    '```ts" onclick="alert(1)\nx\n```',
    '```<img src=x onerror=alert(1)>\nx\n```',
    '```javascript\n</code></pre><script>alert(1)</script>\n```',
    '#a3f2',
    '`#a3f2`',
    '[#a3f2](http://x.example)',
    '#A3F2',
    '#a3f2"><script>',
    '| a | b |\n|---|:-:|\n| <b>x</b> | #beef |',
    '&lt;script&gt;',
    '\0',
    '\u202e',
    '[x](http://a.example "title\\" onmouseover=alert(1)")',
    '<!-- comment -->',
    '<?php ?>',
    '[x](<javascript:alert(1)>)',
    '*'.repeat(5_000),
    '>'.repeat(3_000) + ' x',
    '['.repeat(5_000),
    '`'.repeat(3_000),
  ];
  const mdArb = fc
    .array(
      fc.oneof(
        fc.constantFrom(...hostile),
        fc.string({ maxLength: 20 }),
        fc.constantFrom('\n', '\n\n', ' ', '*', '_', '[', ']', '(', ')', '<', '>', '`', '#', '|', '-'),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));

  it(`${MARKDOWN_RUNS} adversarial Markdown texts render to safe HTML, none throws`, () => {
    for (const text of hostile) expect(problems(renderMarkdown(text, EVERY_ID)), text.slice(0, 40)).toEqual([]);
    fc.assert(
      fc.property(mdArb, (text) => {
        const html = renderMarkdown(text, EVERY_ID);
        expect(problems(html), text.slice(0, 80)).toEqual([]);
      }),
      { numRuns: MARKDOWN_RUNS, seed: SEED },
    );
  }, 120_000);
});
