/** The `web_fetch` input checked as a URL Cairn may fetch (the address it names is checked when connecting). */
export type CheckedUrl = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string };

export function checkWebUrl(input: unknown): CheckedUrl {
  const raw = typeof input === 'object' && input !== null ? (input as { url?: unknown }).url : undefined;
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, message: 'web_fetch needs {"url": "https://…"}.' };
  return checkUrlText(raw.trim());
}

/** A URL as text (the input, or a redirect's Location resolved against the page) checked for scheme and form. */
export function checkUrlText(text: string, base?: URL): CheckedUrl {
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    return { ok: false, message: `"${text.slice(0, 200)}" is not a URL; give a full http:// or https:// URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `web_fetch fetches http and https URLs only, not ${url.protocol}.` };
  }
  // Credentials in a URL would go to the server and into the journal: Cairn never sends them.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: 'The URL holds a user name or password; web_fetch does not send credentials. Give the URL without them.' };
  }
  if (url.hostname === '') return { ok: false, message: 'The URL has no host.' };
  url.hash = '';
  return { ok: true, url };
}

/** The domain an approval names (`web_fetch(domain:example.com)`): the URL's host, lowercased, without port or brackets. */
export function webFetchDomain(input: unknown): string | undefined {
  const checked = checkWebUrl(input);
  return checked.ok ? checked.url.hostname.replace(/^\[|\]$/g, '').toLowerCase() : undefined;
}
