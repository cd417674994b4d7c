import { DEFAULT_WEB_FETCH_SETTINGS, type WebFetchSettings } from '../node/web/nodeWebPageSource';

/**
 * `cairn.webFetch.*`. `allowPrivateAddresses` widens what a fetch may reach (this machine, its network), so it is
 * read from the user's settings only (`USER_ONLY_SETTINGS`); the bounds and `refuseInUntrustedWorkspace` only
 * narrow what Cairn does, so a workspace may set them too.
 */
export interface WebFetchHostSettings {
  readonly fetch: WebFetchSettings;
  /** In an untrusted workspace web_fetch is refused instead of asking. */
  readonly refuseInUntrustedWorkspace: boolean;
}

export const WEB_FETCH_USER_ONLY_SETTINGS: readonly string[] = ['webFetch.allowPrivateAddresses'];

/** `web_fetch(domain:example.com)` in `cairn.approvals`: fetches from that host run without asking. */
export const WEB_FETCH_APPROVAL = /^web_fetch\(domain:[a-z0-9.:-]+\)$/;

export function webFetchSettingsOf(get: (key: string) => unknown, problems: string[]): WebFetchHostSettings {
  const flag = (key: string, fallback: boolean): boolean => {
    const value = get(`webFetch.${key}`);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'boolean') return value;
    problems.push(`cairn.webFetch.${key} must be true or false; using ${String(fallback)}.`);
    return fallback;
  };
  const bound = (key: string, fallback: number, max: number): number => {
    const value = get(`webFetch.${key}`);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max) return value;
    problems.push(`cairn.webFetch.${key} must be a number above 0 and at most ${max}; using ${fallback}.`);
    return fallback;
  };
  const defaults = DEFAULT_WEB_FETCH_SETTINGS;
  return {
    fetch: {
      allowPrivateAddresses: flag('allowPrivateAddresses', defaults.allowPrivateAddresses),
      maxBytes: Math.round(bound('maxMegabytes', defaults.maxBytes / 1024 / 1024, 50) * 1024 * 1024),
      timeoutMs: Math.round(bound('timeoutSeconds', defaults.timeoutMs / 1000, 300) * 1000),
      maxRedirects: defaults.maxRedirects,
    },
    refuseInUntrustedWorkspace: flag('refuseInUntrustedWorkspace', false),
  };
}
