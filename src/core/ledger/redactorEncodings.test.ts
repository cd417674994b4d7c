import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor';
import { keyLeaks } from '../../../test/support/ledger/keyLeaks';
import { runWithDeadline } from '../../../test/support/deadlineChild';

/**
 * Issue 28, case 14: a command can print the key encoded (`base64`, `od`, `rev`, `sed 's/./& /g'`), and
 * the raw-text search missed every such form. Each form below is what a common tool prints; the oracle
 * (`keyLeaks`) looks for the key in every form at once, over the whole text.
 */
const KEY = 'sk-ant-api03-8gjYmnQ_ZcTdzIWoaNDIfppJ9f6129Uy1NGwbQ6FvWVkZoYIHxb6nwnuT3AFb2F7Qz0m5Gm1F_keDSuNk9-gz8MmVnP8_AA';
const MARK = '[redacted: API key]';
const redactor = new Redactor(() => [{ value: KEY, label: 'API key' }]);

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const wrap = (text: string, width: number, eol = '\n'): string => text.match(new RegExp(`.{1,${width}}`, 'g'))!.join(eol);
const hexOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
/** `od -An -tx1`: 16 bytes a line, each as ` xx`. */
const od = (text: string): string =>
  wrap(hexOf(text), 32)
    .split('\n')
    .map((line) => line.replace(/(..)/g, ' $1'))
    .join('\n');
const reversed = (text: string): string => [...text].reverse().join('');

/** Each form as a tool prints it, with text around it as in a real output. */
function encodings(key: string): Record<string, string> {
  const environ = `HOME=/root\0PATH=/usr/bin:/bin\0ANTHROPIC_API_KEY=${key}\0TERM=dumb\0`;
  const forms: Record<string, string> = {
    'base64 of /proc/PID/environ, wrapped at 76': wrap(base64(environ), 76),
    'base64 -w0': base64(key),
    'base64, no padding': base64(key).replace(/=+$/, ''),
    'base64 wrapped with CRLF': wrap(base64(`x${key}`), 64, '\r\n'),
    'URL-safe base64': base64(key).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    'hex, lower': hexOf(key),
    'hex, upper': hexOf(key).toUpperCase(),
    'od -An -tx1': od(key),
    'xxd -p (60 a line)': wrap(hexOf(`ANTHROPIC_API_KEY=${key}\n`), 60),
    'hex with colons': hexOf(key).replace(/(..)(?!$)/g, '$1:'),
    reversed: reversed(key),
    "sed 's/./& /g'": key.replace(/./g, '$& '),
    'one character a line': [...key].join('\n'),
    'JSON array of characters': JSON.stringify([...key]),
    "Python's list()": `[${[...key].map((c) => `'${c}'`).join(', ')}]`,
    'upper case': key.toUpperCase(),
    'reversed and spaced': reversed(key).replace(/./g, '$& '),
  };
  for (const prefix of ['', 'x', 'xy']) {
    for (const suffix of ['', 'z', 'zw']) forms[`base64 of "${prefix}KEY${suffix}"`] = base64(`${prefix}${key}${suffix}`);
  }
  return forms;
}

describe('the key in a common encoding', () => {
  for (const [name, encoded] of Object.entries(encodings(KEY))) {
    it(`${name}: redacted, the text around it kept`, () => {
      expect(keyLeaks(encoded, KEY), 'the oracle sees the key in the form').not.toEqual([]);
      const text = `before ${encoded} after`;
      const out = redactor.redact(text);
      expect(keyLeaks(out, KEY)).toEqual([]);
      expect(out).toContain(MARK);
      expect(out.startsWith('before ')).toBe(true);
      expect(out.endsWith(' after')).toBe(true);
      // Lines stay lines: a read's line numbers and a recall's ranges still hold.
      expect(out.split('\n').length).toBe(text.split('\n').length);
    });
  }

  it('split across streamed chunks at every position, the stream equals redacting the whole', () => {
    const samples = [wrap(base64(`xy${KEY}`), 76), od(KEY), `${KEY.replace(/./g, '$& ')}`, reversed(KEY)];
    for (const sample of samples) {
      const text = `>> ${sample} <<`;
      const whole = redactor.redact(text);
      expect(keyLeaks(whole, KEY)).toEqual([]);
      for (let cut = 0; cut <= text.length; cut += 3) {
        const second = Math.min(text.length, cut + 17);
        const stream = redactor.stream();
        const out = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut, second)) + stream.push(text.slice(second)) + stream.end();
        expect(out).toBe(whole);
      }
    }
  });

  it('any forms among any text, cut anywhere: no form survives, and the stream equals the whole (generated)', () => {
    const forms = Object.values(encodings(KEY));
    const noise = fc.string({ unit: fc.constantFrom('a', 'B', '7', ' ', '\n', '-', '=', '/', '+', 's', 'k', 'é'), maxLength: 40 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(noise, fc.constantFrom(...forms)), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (pieces, cuts) => {
          const text = pieces.join('');
          const whole = redactor.redact(text);
          expect(keyLeaks(whole, KEY)).toEqual([]);
          expect(whole.split('\n').length).toBe(text.split('\n').length);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const stream = redactor.stream();
          let out = '';
          let at = 0;
          for (const point of [...points, text.length]) {
            out += stream.push(text.slice(at, point));
            at = point;
          }
          expect(out + stream.end()).toBe(whole);
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });

  it('a stream holds back only what may begin a secret: plain output passes at once', () => {
    const stream = redactor.stream();
    expect(stream.push('Building…\n')).toBe('Building…\n');
    expect(stream.push('3 of 7 done\n')).toBe('3 of 7 done\n');
    // The known start of every key is held until it is clear it is not one.
    expect(stream.push('sk-ant-api03-')).toBe('');
    expect(stream.push(' was the prefix\n')).toBe('sk-ant-api03- was the prefix\n');
    expect(stream.end()).toBe('');
  });

  it('leaves ordinary text alone, the public start of keys included', () => {
    const text = [
      'export ANTHROPIC_API_KEY=sk-ant-api03-...',
      'The quick brown fox jumps over the lazy dog. 0123456789abcdef'.repeat(3),
      base64('an unrelated payload that is long enough to span several groups'),
      hexOf('another unrelated payload'),
    ].join('\n');
    expect(redactor.redact(text)).toBe(text);
  });

  it('a short secret (under 16 letters and digits) is redacted only as it is: its encodings would match by chance', () => {
    const short = new Redactor(() => [{ value: 'tok-12345678', label: 'token' }]);
    expect(short.redact('tok-12345678')).toBe('[redacted: token]');
    const encoded = `${hexOf('tok-12345678')} ${base64('tok-12345678')} ${reversed('tok-12345678')}`;
    expect(short.redact(encoded)).toBe(encoded);
  });

  it('two secrets: each form of each is redacted with its own label', () => {
    const other = 'ghp_' + 'R7x2Lq9ZmW4vT8nB3cY6'.repeat(2);
    const both = new Redactor(() => [
      { value: KEY, label: 'API key' },
      { value: other, label: 'token' },
    ]);
    // The key is 108 bytes, a multiple of 3: its base64 is decided by the key alone, every character of it.
    const out = both.redact(`${base64(KEY)} | ${hexOf(other)} | ${reversed(other)}`);
    expect(out).toBe('[redacted: API key] | [redacted: token] | [redacted: token]');
    expect(keyLeaks(out, KEY)).toEqual([]);
    expect(keyLeaks(out, other)).toEqual([]);
  });

  it('stays linear on input built to look like the start of a key in every form (no backtracking)', async () => {
    const { timedOut, stdout, stderr } = await runWithDeadline(
      `
      import { Redactor } from './redactor';
      const KEY = ${JSON.stringify(KEY)};
      const prefix = 'sk-ant-api03-';
      const near = [prefix, prefix.replace(/./g, '$& '), Buffer.from(prefix).toString('hex'), Buffer.from(prefix).toString('base64').slice(0, 16), [...prefix].reverse().join('')];
      let text = '';
      while (text.length < 4_000_000) text += near.join('');
      const stream = new Redactor(() => [{ value: KEY, label: 'API key' }]).stream();
      let out = 0;
      for (let i = 0; i < text.length; i += 65536) out += stream.push(text.slice(i, i + 65536)).length;
      out += stream.end().length;
      console.log(out === text.length ? 'unchanged' : 'changed');
      `,
      60_000,
      __dirname,
    );
    expect(timedOut, stderr).toBe(false);
    expect(stdout.trim()).toBe('unchanged');
  }, 90_000);
});
