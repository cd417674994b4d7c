import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seededRandom';
import { forEachPiece } from './pieceScanner';

const PATTERN = new RegExp(o200kBase.pat_str, 'gu');

function regexPieces(text: string): string[] {
  return [...text.matchAll(PATTERN)].map((match) => match[0]);
}

function scannedPieces(text: string): string[] {
  const pieces: string[] = [];
  forEachPiece(text, (from, to) => pieces.push(text.slice(from, to)));
  return pieces;
}

/**
 * Characters chosen to meet every branch: both letter cases (and the contraction letters), digits,
 * the apostrophe, ASCII whitespace of each kind, '/', punctuation and control characters, and
 * non-ASCII letters, marks, digits, spaces, punctuation and an astral symbol.
 */
const ALPHABET = [
  'a',
  'b',
  'z',
  'A',
  'Z',
  's',
  'S',
  't',
  'T',
  'r',
  'R',
  'e',
  'E',
  'v',
  'V',
  'm',
  'M',
  'l',
  'L',
  'd',
  'D',
  '0',
  '7',
  '9',
  "'",
  "'",
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '/',
  '.',
  ',',
  '(',
  ')',
  '{',
  '"',
  '-',
  '_',
  '\x00',
  '\x1b',
  '\x7f',
  'é',
  'Ω',
  'ǅ',
  '\u0301',
  '²',
  '٣',
  '\u00a0',
  '\u2003',
  '\u3000',
  '—',
  '→',
  '東',
  '🙂',
];

describe('pieceScanner', () => {
  it('splits generated text into the same pieces as the o200k regex', () => {
    const random = seededRandom(0x0200);
    for (let sample = 0; sample < 3000; sample++) {
      const length = 1 + Math.floor(random() * 40);
      // Half the samples stay ASCII, where the scanner decides every piece itself.
      const alphabet = sample % 2 === 0 ? ALPHABET.filter((ch) => ch.charCodeAt(0) < 128) : ALPHABET;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(scannedPieces(text), JSON.stringify(text)).toEqual(regexPieces(text));
    }
  });

  it('splits real code, prose and tool output the same way', () => {
    const samples = [
      "It's what we'd've DONE, isn't it? They'LL see.  HTTPServer parseJSON x'S y'Re  \n\n  indented\r\nlines",
      "[#1001 src/f1.ts lines 1-30 of 30 sha 0123abcd]\n1: const item0_0 = load('0/0'); // step 0\n2: //\n//x",
      'Unicode: café naïve Ωmega 東京都の天気 한국어 🙂👍🏽 e\u0301 ÄÖÜ ß a\u00a0b   \u2003\n',
      '    \n\n\n   x   \n \t \n',
    ];
    const dir = import.meta.dirname;
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.ts'))) samples.push(readFileSync(join(dir, name), 'utf8'));
    for (const text of samples) expect(scannedPieces(text)).toEqual(regexPieces(text));
  });
});
