import { cutAtBytes } from '../compose/budget';
import type { TextBlock } from '../model/types';
import { utf8Bytes } from '../text/utf8Bytes';

/** The most bytes of a skill's body the model is given (seed 000's SkillContentCapBytes). */
export const SKILL_CAP_BYTES = 106_496;
export const SKILL_TRUNCATION_MARKER = `[truncated: skill exceeded the ${SKILL_CAP_BYTES}-byte cap]`;

export type SkillState = 'active' | 'inactive';

/** One parsed envelope: an activation carries the body, a deactivation an empty one. */
export interface SkillEnvelope {
  readonly name: string;
  readonly state: SkillState;
  readonly body: string;
}

/**
 * A body within the cap: unchanged when it fits, else cut on a UTF-8 boundary so that the cut text, a
 * newline and the marker together are exactly within the cap. `originalBytes` names the size for the notice.
 */
export function capSkillBody(body: string): { text: string; truncated: boolean; originalBytes: number } {
  const originalBytes = utf8Bytes(body);
  if (originalBytes <= SKILL_CAP_BYTES) return { text: body, truncated: false, originalBytes };
  const room = SKILL_CAP_BYTES - utf8Bytes(`\n${SKILL_TRUNCATION_MARKER}`);
  return { text: `${cutAtBytes(body, room)}\n${SKILL_TRUNCATION_MARKER}`, truncated: true, originalBytes };
}

/**
 * `<cairn-skill name="NAME" state="active" bytes="N">\n<body>\n</cairn-skill>`: length-delimited, N the
 * UTF-8 length of the body, so a body that contains a closing tag cannot end the envelope early.
 */
export function skillEnvelopeText(name: string, state: SkillState, body: string): string {
  return `<cairn-skill name="${name}" state="${state}" bytes="${utf8Bytes(body)}">\n${body}\n</cairn-skill>`;
}

export function skillEnvelope(name: string, state: SkillState, body: string): TextBlock {
  return { type: 'text', text: skillEnvelopeText(name, state, body) };
}

const OPENING = /^<cairn-skill name="([a-z0-9]+(?:-[a-z0-9]+)*)" state="(active|inactive)" bytes="(0|[1-9][0-9]{0,8})">\n/;
const CLOSING = '\n</cairn-skill>';

/**
 * Reads the envelopes at the start of a text, one after another (separated by nothing or whitespace),
 * and stops at the first that does not parse: its text and everything after stay as they are (`rest`).
 */
export function splitSkillEnvelopes(text: string): { envelopes: SkillEnvelope[]; rest: string } {
  const envelopes: SkillEnvelope[] = [];
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  for (;;) {
    let start = at;
    while (start < bytes.length && (bytes[start] === 0x0a || bytes[start] === 0x20 || bytes[start] === 0x09 || bytes[start] === 0x0d))
      start++;
    const head = bytes.subarray(start, start + 200).toString('utf8');
    const open = head.match(OPENING);
    if (!open) break;
    const bodyStart = start + utf8Bytes(open[0]);
    const size = Number(open[3]);
    const bodyEnd = bodyStart + size;
    if (bodyEnd + CLOSING.length > bytes.length) break;
    if (bytes.subarray(bodyEnd, bodyEnd + CLOSING.length).toString('utf8') !== CLOSING) break;
    const body = bytes.subarray(bodyStart, bodyEnd).toString('utf8');
    // A length that cuts a character in two is malformed, not a body.
    if (utf8Bytes(body) !== size) break;
    if (open[2] === 'inactive' && size !== 0) break;
    envelopes.push({ name: open[1]!, state: open[2] as SkillState, body });
    at = bodyEnd + CLOSING.length;
  }
  return { envelopes, rest: bytes.subarray(at).toString('utf8') };
}

/**
 * The effective set after the texts in order (seed 000, EffectiveSkills): an activation replaces that
 * skill's body and moves it to the end; a deactivation removes it. Insertion order is activation order.
 */
export function foldSkillEnvelopes(texts: Iterable<string>, start: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const active = new Map(start);
  for (const text of texts) {
    for (const envelope of splitSkillEnvelopes(text).envelopes) {
      active.delete(envelope.name);
      if (envelope.state === 'active') active.set(envelope.name, envelope.body);
    }
  }
  return active;
}

/**
 * The envelopes that take the model from `current` (the effective set) to `wanted` (the user's choice):
 * deactivations first (in the effective set's order), then activations (in `wanted`'s order) of skills
 * not yet active. Bodies of new activations come from `bodies`; an already active skill is left as it is.
 */
export function skillDeltaBlocks(
  current: ReadonlyMap<string, string>,
  wanted: readonly string[],
  bodies: ReadonlyMap<string, string>,
): TextBlock[] {
  const blocks: TextBlock[] = [];
  const want = new Set(wanted);
  for (const name of current.keys()) if (!want.has(name)) blocks.push(skillEnvelope(name, 'inactive', ''));
  for (const name of wanted) {
    const body = bodies.get(name);
    if (!current.has(name) && body !== undefined) blocks.push(skillEnvelope(name, 'active', body));
  }
  return blocks;
}

/** Whether a text block is one of Cairn's skill or catalog envelopes (what compaction strips from retained turns). */
export function isSkillEnvelopeText(text: string): boolean {
  if (text.startsWith('<cairn-skills-catalog ')) return true;
  const split = splitSkillEnvelopes(text);
  return split.envelopes.length > 0 && split.rest.trim().length === 0;
}
