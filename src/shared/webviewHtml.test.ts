import { describe, expect, it } from 'vitest';
import { WebviewHtmlError, renderWebviewHtml } from './webviewHtml';

const base = {
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
  cspSource: 'https://*.vscode-cdn.net',
  nonce: 'q83vEjRWeJq83vEjRWeJ',
  view: 'chat' as const,
};

function csp(html: string): string {
  const match = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  if (!match?.[1]) throw new Error('no CSP meta');
  return match[1];
}

describe('renderWebviewHtml', () => {
  it('allows only the nonce script and the extension origin, and no network', () => {
    const policy = csp(renderWebviewHtml(base));
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'nonce-q83vEjRWeJq83vEjRWeJ'");
    expect(policy).toContain('style-src https://*.vscode-cdn.net');
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|connect-src/);
  });

  it('puts the nonce on the one script and names the view on the root', () => {
    const html = renderWebviewHtml({ ...base, view: 'report' });
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="q83vEjRWeJq83vEjRWeJ" src="${base.scriptUri}"></script>`);
    expect(html).toContain('<div id="root" data-view="report"></div>');
    expect(html).not.toMatch(/ style=| on[a-z]+=/);
  });

  it('escapes URIs so a quote cannot open an attribute', () => {
    const html = renderWebviewHtml({ ...base, scriptUri: 'x" onload="alert(1)' });
    expect(html).toContain('src="x&quot; onload=&quot;alert(1)"');
  });

  it('refuses a weak nonce or a CSP source that would widen the policy', () => {
    expect(() => renderWebviewHtml({ ...base, nonce: 'abc' })).toThrow(WebviewHtmlError);
    expect(() => renderWebviewHtml({ ...base, cspSource: "https://x; script-src 'unsafe-inline'" })).toThrow(/single origin/);
  });
});
