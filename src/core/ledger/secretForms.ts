/**
 * The forms in which a command may print a secret, as the redactor looks for them. Each form is matched
 * on a projection of the text (`secretAutomaton.ts`): the characters that count, with the others read as
 * separators that may stand between them.
 *
 * - `exact`: the value as it is, character for character (every secret of `MIN_SECRET_CHARS` or more).
 * - `spread` (letters and digits, folded to lower case; anything else a separator): the value's letters and
 *   digits in order, the same backwards, and its UTF-8 bytes in hex. So `s k - a n t`, one character a
 *   line, a JSON array of characters, the key in upper case, `rev`, `od -An -tx1`, `xxd -p`, hex with
 *   colons, in either case.
 * - `base64` (the two base64 alphabets' characters; anything else, line breaks and `=` included, a
 *   separator): the characters of the value's base64 that depend on the value alone, at each of the three
 *   byte alignments it may have inside a larger encoded text (`base64 /proc/$PPID/environ`), in the
 *   standard and the URL-safe alphabet, with or without padding, wrapped or not. The one or two characters
 *   at each end that also encode the neighbouring bytes are left (at most 4 bits of the value each).
 *
 * The encoded forms are looked for only when the value has at least `MIN_ENCODED_ALPHANUMERICS` letters and
 * digits: the projection of a shorter one (`a-b-c-d-e` is `abcde`) would match ordinary text by chance.
 * Not found: a secret cut into pieces with other text between them (`xxd`'s and `hexdump -C`'s columns,
 * `od -c`'s offsets, part of the key) or transformed otherwise (rot13, compressed, encrypted). That is why
 * the key must also be out of a command's reach (`src/node/workspace/README.md`).
 */

export const MIN_ENCODED_ALPHANUMERICS = 16;

export interface SecretForms {
  readonly exact: string;
  readonly spread: readonly string[];
  readonly base64: readonly string[];
}

export function formsOf(value: string): SecretForms {
  const skeleton = value.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  if (skeleton.length < MIN_ENCODED_ALPHANUMERICS) return { exact: value, spread: [], base64: [] };
  const bytes = new TextEncoder().encode(value);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return {
    exact: value,
    spread: unique([skeleton, [...skeleton].reverse().join(''), hex]),
    base64: unique(base64Cores(bytes)),
  };
}

/** For each alignment (0, 1 or 2 bytes before the value in its group of 3), the characters only it decides. */
function base64Cores(bytes: Uint8Array): string[] {
  const cores: string[] = [];
  for (let align = 0; align < 3; align++) {
    const padded = new Uint8Array(align + bytes.length + 2);
    padded.set(bytes, align);
    const encoded = base64(padded);
    // Character i covers bits [6i, 6i + 6) of the stream; the value's bits are [8 align, 8 (align + n)).
    const core = encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 without padding (the tail is never part of a core). */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.ceil((Math.min(3, bytes.length - i) * 8) / 6);
    for (let c = 0; c < chars; c++) out += ALPHABET[(chunk >> (18 - 6 * c)) & 63];
  }
  return out;
}

function unique(forms: readonly string[]): string[] {
  return [...new Set(forms.filter((form) => form.length > 0))];
}
