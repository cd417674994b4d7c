import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { CodeBlockAction } from '../../src/shared/protocol';
import { useBridge } from './bridgeContext';
import type { HostBridge } from './hostBridge';
import { knownResultIds } from './knownIds';
import { splitMarkdownBlocks } from './markdownBlocks';
import { renderMarkdown } from './renderMarkdown';

/** One rendered piece of a streaming message and the DOM nodes it became. */
interface RenderedPiece {
  readonly source: string;
  readonly nodes: readonly ChildNode[];
}

/**
 * While a message streams, its text grows at the end many times a second. Rendering all of it again on
 * every change made frames late, so the text is cut into pieces that render alone exactly as together
 * (`splitMarkdownBlocks`), and only pieces whose text changed (in practice the last) are rendered and
 * put in the DOM; the rest keep their nodes. The element's children are the same as one full render's.
 */
function useStreamingPieces(
  host: { current: HTMLDivElement | null },
  source: string,
  streaming: boolean,
  known: ReadonlySet<string>,
): void {
  const shown = useRef<RenderedPiece[]>([]);
  const shownWith = useRef(known);
  useLayoutEffect(() => {
    const element = host.current;
    if (!streaming || !element) {
      // Preact owns the children again (dangerouslySetInnerHTML); a later stream starts from scratch.
      shown.current = [];
      return;
    }
    // New ids became known: every piece may link differently, so all are rendered again.
    if (shownWith.current !== known) {
      for (const piece of shown.current) for (const node of piece.nodes) node.remove();
      shown.current = [];
      shownWith.current = known;
    }
    const pieces = splitMarkdownBlocks(source);
    const previous = shown.current;
    if (previous.length === 0) element.textContent = '';
    let kept = 0;
    while (kept < previous.length && kept < pieces.length && previous[kept]!.source === pieces[kept]) kept++;
    for (const stale of previous.slice(kept)) for (const node of stale.nodes) node.remove();
    const next = previous.slice(0, kept);
    const parser = element.ownerDocument.createElement('div');
    for (const piece of pieces.slice(kept)) {
      // Parsed in a detached div: the same context as the element's own innerHTML.
      parser.innerHTML = renderMarkdown(piece, known);
      const nodes = Array.from(parser.childNodes);
      element.append(...nodes);
      next.push({ source: piece, nodes });
    }
    shown.current = next;
  }, [source, streaming, known]);
}

/** A code block's button (renderMarkdown's toolbar): its block's text goes to the host with the action. */
function sendCodeAction(button: HTMLElement, bridge: HostBridge): void {
  const block = button.closest('.code-block');
  const code = block?.querySelector('pre code')?.textContent?.replace(/\n$/, '');
  const action = button.dataset.codeAction as CodeBlockAction | undefined;
  if (!block || code === undefined || code === null || !action) return;
  const language = (block as HTMLElement).dataset.language;
  bridge.notify(language === undefined ? { type: 'codeBlock', action, code } : { type: 'codeBlock', action, code, language });
  if (action === 'copy') {
    // Said where the click was (the host copies without a word): the button reads "Copied" for a moment.
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  }
}

/**
 * Rendered Markdown. The HTML comes from markdown-it with raw HTML off, so it carries no scripts,
 * handlers or remote content; links are opened by the host (http(s) only), never by the page.
 * `streaming` renders piece by piece (see `useStreamingPieces`); when it ends the whole text is
 * rendered once, as for any finished message.
 */
export function Markdown({ source, class: className, streaming = false }: { source: string; class?: string; streaming?: boolean }) {
  const bridge = useBridge();
  const element = useRef<HTMLDivElement>(null);
  const known = knownResultIds.value;
  const html = useMemo(() => (streaming ? '' : renderMarkdown(source, known)), [source, streaming, known]);
  useStreamingPieces(element, source, streaming, known);
  const onClick = (event: MouseEvent) => {
    const codeButton = (event.target as Element | null)?.closest?.('[data-code-action]');
    if (codeButton) {
      sendCodeAction(codeButton as HTMLElement, bridge);
      return;
    }
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!link) return;
    event.preventDefault();
    const url = link.getAttribute('href') ?? '';
    if (/^https?:\/\//i.test(url)) bridge.notify({ type: 'openLink', url });
  };
  const cls = `markdown ${className ?? ''}`;
  return streaming ? (
    <div ref={element} class={cls} onClick={onClick} />
  ) : (
    <div ref={element} class={cls} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
