/**
 * Where a key shows in a text, raw or in a common encoding: the oracle of the secrets tests. Deliberately
 * not the redactor's code: it projects the whole text at once (no bound on what stands between two
 * characters), so it is stricter than what it checks.
 *
 * - `raw`: the key as it is.
 * - `spread`: the key's letters and digits in order, any case, anything else between them (`s k - a n t`,
 *   one per line, a JSON array of characters, upper case).
 * - `reversed`: the same, backwards.
 * - `hex`: its UTF-8 bytes in hex, either case, any separators (`od -An -tx1`, `xxd -p`).
 * - `base64`: the characters of its base64 that depend on the key alone, at each of the three byte
 *   alignments, standard or URL-safe, across line breaks (`base64` wraps at 76).
 */
export type LeakForm = 'raw' | 'spread' | 'reversed' | 'hex' | 'base64';

/** Letters and digits, lower case: the projection of `spread`, `reversed` and `hex`. */
function alphanumeric(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}

/** The base64 alphabets' characters (both), nothing else. */
function base64Characters(text: string): string {
  return text.replace(/[^A-Za-z0-9+/_-]/g, '');
}

/** What the base64 of the key gives whatever bytes surround it: for each alignment, each alphabet. */
export function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const cores: string[] = [];
  for (let align = 0; align < 3; align++) {
    const encoded = Buffer.concat([Buffer.alloc(align), bytes, Buffer.alloc(2)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * align + 8 * bytes.length) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)];
}

/** Text as it would read once JSON's escapes are undone (`\n` is a line break, not an `n`). */
function unescaped(text: string): string {
  return text.replace(/\\u[0-9a-fA-F]{4}|\\[nrtbf"\\/]/g, ' ');
}

export function keyLeaks(text: string, key: string): LeakForm[] {
  const found = new Set<LeakForm>();
  const skeleton = alphanumeric(key);
  const hex = Buffer.from(key, 'utf8').toString('hex');
  const cores = base64Cores(key);
  for (const variant of [text, unescaped(text)]) {
    if (variant.includes(key)) found.add('raw');
    const letters = alphanumeric(variant);
    if (letters.includes(skeleton)) found.add('spread');
    if (letters.includes([...skeleton].reverse().join(''))) found.add('reversed');
    if (letters.includes(hex)) found.add('hex');
    const base64 = base64Characters(variant);
    if (cores.some((core) => base64.includes(core))) found.add('base64');
  }
  return [...found];
}
