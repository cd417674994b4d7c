import ipaddr from 'ipaddr.js';

/**
 * Which addresses `web_fetch` may connect to. A page fetched for the model must not reach this machine or its
 * network by default (a page or a prompt could point it at a router's admin page, a cloud metadata service at
 * 169.254.169.254, a dev server on localhost): loopback, private, link-local, unique-local, carrier-grade NAT and
 * the unspecified address (0.0.0.0 reaches this machine) are refused unless the user allowed them
 * (`cairn.webFetch.allowPrivateAddresses`, user settings only). Multicast and broadcast are never fetched.
 */
const LOCAL_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);
const NEVER_RANGES: ReadonlySet<string> = new Set(['multicast', 'broadcast']);

/** Why `address` (an IP literal as DNS or a socket gives it) may not be fetched from, or undefined when it may. */
export function refusedAddressReason(address: string, allowPrivate: boolean): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `${address} is not an address Cairn can check, so it is not fetched.`;
  }
  const range = parsed.range();
  if (NEVER_RANGES.has(range)) return `${address} is a ${range} address; web_fetch never fetches from one.`;
  if (LOCAL_RANGES.has(range) && !allowPrivate) {
    return (
      `${address} is a ${range} address (this machine or its local network), which web_fetch refuses. ` +
      'The user can allow such addresses with the user setting cairn.webFetch.allowPrivateAddresses.'
    );
  }
  return undefined;
}

/** Whether `host` (a URL's hostname) is an IP literal rather than a name to look up. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}
