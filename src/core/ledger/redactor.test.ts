import { describe, expect, it } from 'vitest';
import { Redactor, MIN_SECRET_CHARS } from './redactor';

const KEY = 'sk-ant-api03-abcdefghijklmnop';
const key = () => [{ value: KEY, label: 'API key' }];

describe('Redactor', () => {
  it('replaces every occurrence of a secret with a mark naming it', () => {
    expect(new Redactor(key).redact(`a ${KEY} b ${KEY}`)).toBe('a [redacted: API key] b [redacted: API key]');
  });

  it('leaves secrets shorter than the minimum alone (they would make output nonsense)', () => {
    const short = 'x'.repeat(MIN_SECRET_CHARS - 1);
    expect(new Redactor(() => [{ value: short, label: 'token' }]).redact(`${short}!`)).toBe(`${short}!`);
  });

  it('asks its sources each time, so a key set later is redacted', () => {
    const known: { value: string; label: string }[] = [];
    const redactor = new Redactor(() => known);
    expect(redactor.redact(KEY)).toBe(KEY);
    known.push({ value: KEY, label: 'API key' });
    expect(redactor.redact(KEY)).toBe('[redacted: API key]');
  });

  it('finds a secret split across chunks at every position, and the stream equals redacting the whole', () => {
    const redactor = new Redactor(key, () => [{ value: 'tok-12345678', label: 'token' }]);
    const text = `start ${KEY} mid tok-12345678${KEY}tok-1234 end ${KEY}`;
    for (let cut = 0; cut <= text.length; cut++) {
      for (const second of [cut, Math.min(text.length, cut + 3)]) {
        const stream = redactor.stream();
        const out = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut, second)) + stream.push(text.slice(second)) + stream.end();
        expect(out).toBe(redactor.redact(text));
      }
    }
    expect(redactor.redact(text)).not.toContain(KEY);
  });

  it('a stream fed one character at a time still redacts', () => {
    const stream = new Redactor(key).stream();
    let out = '';
    for (const c of `>>${KEY}<<`) out += stream.push(c);
    out += stream.end();
    expect(out).toBe('>>[redacted: API key]<<');
  });
});
