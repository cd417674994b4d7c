import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { WebFetchError } from './webFetchError';

/**
 * A fetched body as the text the model reads. HTML: the main content picked by Mozilla's Readability (Firefox's
 * Reader View) over a linkedom DOM, turned into Markdown by Turndown; libraries many others keep, rather than a
 * hand-written extractor. Other text is shown as it came. Anything else (images, PDFs, archives) is refused.
 */
export interface PageText {
  readonly title?: string;
  readonly text: string;
  readonly note?: string;
}

/**
 * Readability's time grows much faster than the page (measured: 400 nested divs took 4.5 s, 1,000 took 94 s; 20,000
 * paragraphs 5 s), so an HTML bomb would hold the tool for minutes. A linear scan of the tags comes first: a page
 * deeper, larger or with more elements than these skips Readability and is converted whole by Turndown, and past
 * the Turndown bounds is shown as plain text, with a note. Real pages nest a few dozen deep and hold a few thousand
 * elements; a long docs page stays within them.
 */
const READABILITY_BOUNDS = { depth: 120, elements: 12_000, chars: 1_500_000 };
const TURNDOWN_BOUNDS = { depth: 2_000, elements: 40_000, chars: 3_000_000 };
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

interface HtmlShape {
  readonly depth: number;
  readonly elements: number;
  readonly chars: number;
}

/** How deep and how many the page's tags are, by one pass over its text (no DOM is built). */
export function htmlShape(html: string): HtmlShape {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const name = match[2]!.toLowerCase();
    if (match[1] === '/') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    elements++;
    if (match[3] === '/' || VOID_TAGS.has(name)) continue;
    depth++;
    if (depth > deepest) deepest = depth;
  }
  return { depth: deepest, elements, chars: html.length };
}

function within(shape: HtmlShape, bounds: HtmlShape): boolean {
  return shape.depth <= bounds.depth && shape.elements <= bounds.elements && shape.chars <= bounds.chars;
}

function describeShape(shape: HtmlShape): string {
  return `${shape.elements.toLocaleString('en-US')} elements, nested ${shape.depth.toLocaleString('en-US')} deep, ${shape.chars.toLocaleString('en-US')} characters`;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml)\b)/i;

export function pageText(bytes: Buffer, contentType: string, url: string): PageText {
  const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const text = decode(bytes, contentType);
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || (mime === '' && /^\s*<(!doctype html|html)/i.test(text))) {
    return htmlToMarkdown(text, url);
  }
  if (mime === '' || TEXT_TYPES.test(mime)) return { text };
  throw new WebFetchError(`the page is ${mime}, not text or HTML; web_fetch reads text pages only.`);
}

function decode(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    // An unknown charset label: read it as UTF-8 rather than fail.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function htmlToMarkdown(html: string, url: string): PageText {
  const shape = htmlShape(html);
  if (!within(shape, TURNDOWN_BOUNDS)) {
    return {
      text: plainText(html),
      note: `The page is too large to turn into Markdown (${describeShape(shape)}); its plain text is shown.`,
    };
  }
  try {
    const { document } = parseHTML(html);
    const title = document.title?.trim() || undefined;
    const readable = within(shape, READABILITY_BOUNDS);
    const article = readable ? new Readability(document as unknown as Document).parse() : null;
    const content = article?.content ?? document.body?.innerHTML ?? '';
    const markdown = turndown(url).turndown(content).trim();
    return {
      ...(article?.title || title ? { title: article?.title || title } : {}),
      text: markdown,
      ...(readable ? {} : { note: `The whole page is shown: it is too large for the main-content extractor (${describeShape(shape)}).` }),
    };
  } catch (error) {
    // Too many elements, or nesting deeper than the converters' recursion (a stack overflow): plain text.
    const why = error instanceof RangeError ? 'it is nested too deeply' : error instanceof Error ? error.message : String(error);
    return { text: plainText(html), note: `The page could not be turned into Markdown (${why.slice(0, 200)}); its plain text is shown.` };
  }
}

function turndown(url: string): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Scripts, styles and forms are not content; images become their alt text with an absolute link.
  service.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);
  service.addRule('absoluteImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      const src = absolute(element.getAttribute('src') ?? '', url);
      return src ? `![${alt}](${src})` : alt;
    },
  });
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && (node as HTMLElement).getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = absolute((node as HTMLElement).getAttribute('href') ?? '', url);
      return href && content.trim() ? `[${content.trim()}](${href})` : content;
    },
  });
  return service;
}

function absolute(link: string, base: string): string {
  try {
    const resolved = new URL(link, base);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' || resolved.protocol === 'mailto:' ? resolved.href : '';
  } catch {
    return '';
  }
}

/** The text between tags, without scripts and styles; a linear scan, safe on any nesting. */
function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
