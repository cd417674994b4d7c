/**
 * The page both webviews (chat and report) load, with a strict Content-Security-Policy: nothing but the
 * extension's own files, one nonce'd script, no inline styles or handlers, no network (`connect-src`
 * falls back to `default-src 'none'`). The host and the browser-test harness both use it, so the tests
 * run under the same policy as VS Code.
 */
import type { WebviewKind } from './protocol';

export interface WebviewHtmlOptions {
  /** URI of `dist/webview.js` as the webview may load it (`webview.asWebviewUri`). */
  readonly scriptUri: string;
  /** URI of `dist/webview.css`, the one stylesheet (bundled from `webview-ui/webview.css`). */
  readonly styleUri: string;
  /** `webview.cspSource`: the origin the webview's own resources are served from. */
  readonly cspSource: string;
  /** Fresh random value per page load (base64 or hex); only the script carrying it runs. */
  readonly nonce: string;
  readonly view: WebviewKind;
  /** Shown in the tab and read by screen readers. */
  readonly title?: string;
}

export class WebviewHtmlError extends Error {
  override readonly name = 'WebviewHtmlError';
}

const NONCE = /^[A-Za-z0-9+/=_-]{16,128}$/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Produces the complete HTML document for one webview. */
export function renderWebviewHtml(options: WebviewHtmlOptions): string {
  const { scriptUri, styleUri, cspSource, nonce, view } = options;
  if (!NONCE.test(nonce)) {
    throw new WebviewHtmlError(
      'The webview nonce must be 16 to 128 characters of base64 or hex; make a fresh one with crypto.randomBytes(16).',
    );
  }
  // The CSP source is one origin-like token; anything with a quote, semicolon or space would let the
  // caller widen the policy by accident.
  if (!/^[^\s;'"]+$/.test(cspSource)) {
    throw new WebviewHtmlError(`The webview CSP source "${cspSource}" must be a single origin such as webview.cspSource.`);
  }
  const csp = [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = options.title ?? (view === 'report' ? 'Cairn Context Report' : 'Cairn');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>${escapeAttribute(title)}</title>
</head>
<body>
<div id="root" data-view="${view === 'report' ? 'report' : 'chat'}"></div>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(scriptUri)}"></script>
</body>
</html>
`;
}
