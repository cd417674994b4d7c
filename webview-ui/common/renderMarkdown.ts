/**
 * Markdown for the model's text, summaries and the files table. Raw HTML is never passed through
 * (`html: false`), images are off (no remote content), links are only http(s) (no `command:`, `file:`,
 * `javascript:`), and every result id in text or code becomes a recall link.
 */
import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import { highlightCode } from './highlight';
import { escapeHtml, linkifyIdsHtml, recallLinkHtml, splitResultIds, type KnownIds } from './resultIds';

const NO_IDS: KnownIds = { has: () => false };

/** The ids a render may link, from markdown-it's env (`renderMarkdown` puts them there); none when absent. */
function knownIn(env: unknown): KnownIds {
  const known = (env as { known?: KnownIds } | undefined)?.known;
  return known && typeof known.has === 'function' ? known : NO_IDS;
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: false, typographer: false, breaks: false });
  md.disable(['image']);
  md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());

  /**
   * Ids inside a link's text stay plain: a button inside a link would be two targets in one. The link
   * depth at each token of an inline run is computed once per run (one pass), not rescanned from the
   * first token for every text token: that was quadratic, 20 s for 1 MB of linked text.
   */
  const linkDepths = new WeakMap<Token[], Int32Array>();
  function insideLink(tokens: Token[], idx: number): boolean {
    let depths = linkDepths.get(tokens);
    if (!depths) {
      depths = new Int32Array(tokens.length);
      let depth = 0;
      for (let i = 0; i < tokens.length; i++) {
        depths[i] = depth;
        const type = tokens[i]?.type;
        if (type === 'link_open') depth++;
        else if (type === 'link_close') depth--;
      }
      linkDepths.set(tokens, depths);
    }
    return (depths[idx] ?? 0) > 0;
  }

  md.renderer.rules.text = (tokens, idx, _options, env) => {
    const content = tokens[idx]?.content ?? '';
    return insideLink(tokens, idx) ? escapeHtml(content) : linkifyIdsHtml(content, knownIn(env));
  };
  md.renderer.rules.code_inline = (tokens, idx, _options, env) =>
    `<code>${linkifyIdsHtml(tokens[idx]?.content ?? '', knownIn(env))}</code>`;
  md.renderer.rules.fence = (tokens, idx, _options, env) =>
    codeBlockHtml(tokens[idx]?.content ?? '', tokens[idx]?.info ?? '', knownIn(env));
  md.renderer.rules.code_block = (tokens, idx, _options, env) => codeBlockHtml(tokens[idx]?.content ?? '', '', knownIn(env));
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    if (token) {
      const href = token.attrGet('href') ?? '';
      token.attrSet('class', 'md-link');
      token.attrSet('title', href);
    }
    return self.renderToken(tokens, idx, options);
  };
  return md;
}

/** A fence's language: the info string's first word, when it looks like a language name. */
function fenceLanguage(info: string): string | undefined {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return /^[A-Za-z0-9_+#.-]{1,40}$/.test(word) ? word.toLowerCase() : undefined;
}

/** Every known id in the text between tags of highlighted HTML becomes a recall link (tags are left alone). */
function linkifyHighlighted(html: string, known: KnownIds): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) =>
      part.startsWith('<')
        ? part
        : splitResultIds(part, known)
            .map((segment) => (segment.kind === 'id' ? recallLinkHtml(segment.id) : segment.text))
            .join(''),
    )
    .join('');
}

const CODE_BUTTONS =
  '<button type="button" class="text-button" data-code-action="copy" title="Copy the code">Copy</button>' +
  '<button type="button" class="text-button" data-code-action="insert" title="Insert at the cursor of the active editor">Insert at Cursor</button>' +
  '<button type="button" class="text-button" data-code-action="newFile" title="Open in a new untitled editor">Open in New File</button>';

/**
 * A code block with its toolbar (Copy, Insert at Cursor, Open in New File: the chat's click handler sends
 * them to the host) and, for a fence that names a registered language, syntax highlighting.
 */
function codeBlockHtml(code: string, info: string, known: KnownIds): string {
  const language = fenceLanguage(info);
  const highlighted = language === undefined ? undefined : highlightCode(code, language);
  const body = highlighted === undefined ? linkifyIdsHtml(code, known) : linkifyHighlighted(highlighted, known);
  const languageAttribute = language === undefined ? '' : ` data-language="${escapeHtml(language)}"`;
  const label = language === undefined ? '' : `<span class="code-language">${escapeHtml(language)}</span>`;
  const codeClass = highlighted === undefined ? '' : ` class="hljs language-${escapeHtml(language!)}"`;
  return (
    `<div class="code-block"${languageAttribute}><div class="code-block-bar">${label}${CODE_BUTTONS}</div>` +
    `<pre class="md-code"><code${codeClass}>${body}</code></pre></div>\n`
  );
}

let renderer: MarkdownIt | undefined;

/** Markdown to safe HTML with a recall link for each id the session gave (`known`). */
export function renderMarkdown(source: string, known: KnownIds): string {
  renderer ??= createRenderer();
  return renderer.render(source, { known });
}

/**
 * The 0-based lines where markdown-it's block parser starts a top-level block (no inline parsing, so
 * cheap enough to run on every frame of a streaming message).
 */
export function topLevelBlockLines(source: string): number[] {
  renderer ??= createRenderer();
  const tokens: Token[] = [];
  renderer.block.parse(source, renderer, {}, tokens);
  return tokens.filter((token) => token.level === 0 && token.nesting !== -1 && token.map).map((token) => token.map![0]);
}
