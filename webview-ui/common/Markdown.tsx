import { useMemo } from 'preact/hooks';
import { useBridge } from './bridgeContext';
import { renderMarkdown } from './renderMarkdown';

/**
 * Rendered Markdown. The HTML comes from markdown-it with raw HTML off, so it carries no scripts,
 * handlers or remote content; links are opened by the host (http(s) only), never by the page.
 */
export function Markdown({ source, class: className }: { source: string; class?: string }) {
  const bridge = useBridge();
  const html = useMemo(() => renderMarkdown(source), [source]);
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!link) return;
    event.preventDefault();
    const url = link.getAttribute('href') ?? '';
    if (/^https?:\/\//i.test(url)) bridge.notify({ type: 'openLink', url });
  };
  return <div class={`markdown ${className ?? ''}`} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
