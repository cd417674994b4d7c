import { describe, expect, it } from 'vitest';
import { webFetchVerdict } from './webFetchApproval';

const url = { url: 'https://Docs.Example.com:8443/guide?q=1' };

describe('webFetchVerdict', () => {
  it('asks, remembering the domain: an "always" answer covers that host only', () => {
    expect(webFetchVerdict(url, { alwaysAllow: new Set(), workspaceTrusted: true })).toEqual({
      verdict: { kind: 'ask' },
      alwaysKey: 'web_fetch(domain:docs.example.com)',
      allowance: 'fetches from docs.example.com',
    });
    expect(webFetchVerdict(url, { alwaysAllow: new Set(['web_fetch(domain:example.com)']), workspaceTrusted: true }).verdict).toEqual({
      kind: 'ask',
    });
  });

  it('runs with the domain allowed, or every domain (bare web_fetch)', () => {
    for (const allow of ['web_fetch(domain:docs.example.com)', 'web_fetch']) {
      expect(webFetchVerdict(url, { alwaysAllow: new Set([allow]), workspaceTrusted: true }).verdict).toEqual({ kind: 'run' });
    }
  });

  it('asks in an untrusted workspace, and refuses there only when the user set cairn.webFetch.refuseInUntrustedWorkspace', () => {
    expect(webFetchVerdict(url, { alwaysAllow: new Set(), workspaceTrusted: false }).verdict).toEqual({ kind: 'ask' });
    const refused = webFetchVerdict(url, {
      alwaysAllow: new Set(['web_fetch']),
      workspaceTrusted: false,
      refuseWebFetchWhenUntrusted: true,
    });
    expect(refused.verdict.kind).toBe('refuse');
    expect(refused.verdict.kind === 'refuse' && refused.verdict.reason).toContain('cairn.webFetch.refuseInUntrustedWorkspace');
  });
});
