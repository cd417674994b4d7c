import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';
import { utf8Bytes } from '../text/utf8Bytes';
import { NO_SKILLS_LEFT } from './catalogDelta';

/**
 * What the model has of the rules files and the skills catalog: the static part's, then every delta Cairn
 * wrote into the messages that survive in the current generation. Folded from the conversation each time,
 * never kept on the side, so a rewind that drops a delta's message (edit and resend, a restore of the
 * conversation) makes the next message carry it again, and a reopened session knows what it had sent.
 *
 * Only blocks Cairn wrote (`syntheticBlocks`) count: an envelope typed by the user is text, not a delta.
 * After a compaction the static part is built from the files as they are then; a delta carried in the kept
 * tail can only be older, so at worst the current text is sent once more as a delta.
 */
export function rulesTheModelHas(staticRules: ReadonlyMap<string, string>, entries: readonly ConversationEntry[]): Map<string, string> {
  const known = new Map(staticRules);
  for (const text of cairnTexts(entries)) {
    const envelope = parseEnvelope(text, 'cairn-rules');
    if (!envelope) continue;
    const path = envelope.attributes.get('path');
    const state = envelope.attributes.get('state');
    if (path === undefined) continue;
    if (state === 'removed') known.delete(path);
    else if (state === 'added' || state === 'changed') known.set(path, envelope.body);
  }
  return known;
}

/** The skills catalog the model has: the static part's, then the last catalog delta of the surviving messages. */
export function catalogTheModelHas(staticCatalog: string, entries: readonly ConversationEntry[]): string {
  let known = staticCatalog;
  for (const text of cairnTexts(entries)) {
    const envelope = parseEnvelope(text, 'cairn-skills-catalog');
    if (envelope) known = envelope.body === NO_SKILLS_LEFT ? '' : envelope.body;
  }
  return known;
}

function* cairnTexts(entries: readonly ConversationEntry[]): Generator<string> {
  for (const entry of entries) {
    if (entry.message.role !== 'user') continue;
    const content = entry.message.content;
    for (let index = 0; index < content.length; index++) {
      const block = content[index]!;
      if (block.type === 'text' && isSyntheticBlock(entry, index)) yield block.text;
    }
  }
}

/**
 * One length-delimited envelope (`<tag a="…" bytes="N">\nBODY\n</tag>`, as `rulesEnvelope` and
 * `catalogDeltaBlock` write them); undefined for anything else or a body whose length does not match.
 */
function parseEnvelope(text: string, tag: string): { attributes: Map<string, string>; body: string } | undefined {
  if (!text.startsWith(`<${tag} `)) return undefined;
  const headerEnd = text.indexOf('>\n');
  const closing = `\n</${tag}>`;
  if (headerEnd < 0 || !text.endsWith(closing)) return undefined;
  const attributes = new Map<string, string>();
  for (const match of text.slice(tag.length + 2, headerEnd).matchAll(/([a-z]+)="([^"]*)"/g)) {
    attributes.set(match[1]!, unescapeAttribute(match[2]!));
  }
  const body = text.slice(headerEnd + 2, text.length - closing.length);
  if (Number(attributes.get('bytes')) !== utf8Bytes(body)) return undefined;
  return { attributes, body };
}

function unescapeAttribute(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
