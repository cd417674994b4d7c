/**
 * Who may let `web_fetch` run. A fetch changes nothing in the workspace but sends a request off the machine (its
 * URL can carry what the model read), so it asks, and its allowances are per domain:
 * `web_fetch(domain:example.com)` in `cairn.approvals` or from an "always" answer; bare `web_fetch` in the user's
 * settings allows every domain. In an untrusted workspace it still asks (it reads no workspace file and runs
 * nothing there), unless the user's `cairn.webFetch.refuseInUntrustedWorkspace` says to refuse.
 */
import { WEB_FETCH_TOOL_NAME } from '../web/webFetchTool';
import { webFetchDomain } from '../web/webUrl';
import type { ApprovalSettings, ApprovalVerdict } from './approval';

/** The allowance key of fetches from `domain`, as `cairn.approvals` spells it. */
export function webFetchAllowanceKey(domain: string): string {
  return `${WEB_FETCH_TOOL_NAME}(domain:${domain})`;
}

export interface WebFetchVerdict {
  readonly verdict: ApprovalVerdict;
  /** What "always" remembers for this call (its domain's key); absent when the input names no URL. */
  readonly alwaysKey?: string;
  /** The allowance in the prompt's words. */
  readonly allowance?: string;
}

export function webFetchVerdict(input: unknown, settings: ApprovalSettings): WebFetchVerdict {
  if (!settings.workspaceTrusted && settings.refuseWebFetchWhenUntrusted === true) {
    return {
      verdict: {
        kind: 'refuse',
        reason:
          'The workspace is not trusted and the user set cairn.webFetch.refuseInUntrustedWorkspace, so Cairn does not fetch web pages here. ' +
          'The user can trust the workspace (Workspaces: Manage Workspace Trust) or change that setting.',
      },
    };
  }
  const domain = webFetchDomain(input);
  // Input that names no fetchable URL is answered by the tool with what is wrong; nothing leaves the machine.
  if (domain === undefined) return { verdict: { kind: 'run' } };
  const key = webFetchAllowanceKey(domain);
  const allowed = settings.alwaysAllow.has(WEB_FETCH_TOOL_NAME) || settings.alwaysAllow.has(key);
  return { verdict: allowed ? { kind: 'run' } : { kind: 'ask' }, alwaysKey: key, allowance: `fetches from ${domain}` };
}
