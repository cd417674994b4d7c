/**
 * `cairn.thinking`, `cairn.effort` and `cairn.headers`: how each request to the model is made. Read like every
 * setting (a wrong value is reported and the default used); all three from the user's settings only
 * (`USER_ONLY_SETTINGS`).
 */
import { MIN_THINKING_BUDGET, type EffortSetting, type ThinkingSetting } from '../core/model/thinking';
import { EFFORTS, type Effort } from '../core/model/types';

type SettingGetter = (key: string) => unknown;

/** The largest budget a setting may name: no model produces more than this in one answer. */
const MAX_THINKING_BUDGET = 128_000;

/** `cairn.thinking` ("off" | "auto" | a budget in tokens) and `cairn.effort` ("auto" | a level). */
export function thinkingSettingsOf(get: SettingGetter, problems: string[]): { thinking: ThinkingSetting; effort: EffortSetting } {
  let thinking: ThinkingSetting = 'off';
  const raw = get('thinking');
  if (raw === 'off' || raw === 'auto') thinking = raw;
  else if (typeof raw === 'number' && Number.isInteger(raw) && raw >= MIN_THINKING_BUDGET && raw <= MAX_THINKING_BUDGET) thinking = raw;
  else if (raw !== undefined && raw !== null)
    problems.push(
      `cairn.thinking must be "off", "auto" or a budget in tokens from ${MIN_THINKING_BUDGET} to ${MAX_THINKING_BUDGET}; thinking is off.`,
    );
  let effort: EffortSetting = 'auto';
  const rawEffort = get('effort');
  if (rawEffort === 'auto' || EFFORTS.includes(rawEffort as Effort)) effort = rawEffort as EffortSetting;
  else if (rawEffort !== undefined && rawEffort !== null)
    problems.push(`cairn.effort must be "auto" or one of ${EFFORTS.map((e) => `"${e}"`).join(', ')}; using "auto".`);
  return { thinking, effort };
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers Cairn sets itself or that carry the credential: the key and the token live in secret storage
 * (“Cairn: Set API Key”, “Cairn: Set Auth Token”), never in a settings file, and Cairn's own headers mean what Cairn says.
 */
const RESERVED = /^(authorization|x-api-key|anthropic-version|content-type|content-length|host|x-cairn-.*)$/i;

/** `cairn.headers`: an object of header name → text value; a bad entry is reported and left out. */
export function requestHeadersOf(value: unknown, problems: string[]): Readonly<Record<string, string>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('cairn.headers must be an object of header name → value, such as { "x-team": "platform" }; no extra headers are sent.');
    return {};
  }
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) problems.push(`cairn.headers: "${name.slice(0, 40)}" is not a header name; it is not sent.`);
    else if (RESERVED.test(name))
      problems.push(
        `cairn.headers: "${name}" is set by Cairn; it is not sent. For a gateway's bearer token use “Cairn: Set Auth Token” (kept in secret storage, not in settings).`,
      );
    else if (typeof raw !== 'string' || /[\r\n\0]/.test(raw))
      problems.push(`cairn.headers["${name}"] must be text on one line; it is not sent.`);
    else headers[name] = raw;
  }
  return headers;
}
