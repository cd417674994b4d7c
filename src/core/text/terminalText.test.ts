import { describe, expect, it } from 'vitest';
import { sanitizeTerminalText, TerminalTextStream } from './terminalText';

describe('sanitizeTerminalText', () => {
  it('shows a carriage return that would overwrite a line, so "3 FAILED" cannot be hidden', () => {
    expect(sanitizeTerminalText('3 FAILED\rall passed\n')).toBe('3 FAILED\u240dall passed\n');
  });

  it('removes colours, cursor moves, titles and hyperlinks; keeps \\t and \\n; \\r\\n is \\n', () => {
    expect(sanitizeTerminalText('\u001b[31mred\u001b[0m\tok\r\n')).toBe('red\tok\n');
    expect(sanitizeTerminalText('\u001b]0;title\u0007a\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\')).toBe('alink');
    expect(sanitizeTerminalText('a\u001b[2K\u001b[1Ab\u001b(Bc\u001b=d')).toBe('abcd');
  });

  it('makes other controls visible', () => {
    expect(sanitizeTerminalText('a\u0008b\u0007c\u007fd\u0000e\u009bf')).toBe('a\u2408b\u2407c\u2421d\u2400e\ufffdf');
  });

  it('shows bidi controls as their code points, so reordered text cannot pass for what it is not', () => {
    // "Trojan source": U+202E makes `if (admin) {⁦ // check⁩` read differently from what it does.
    const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
    for (const char of bidi) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      expect(sanitizeTerminalText(`a${char}b`)).toBe(`a⟨U+${code}⟩b`);
    }
    expect(sanitizeTerminalText('user\u202e\u2066// admin\u2069\u2066 ok')).toBe('user⟨U+202E⟩⟨U+2066⟩// admin⟨U+2069⟩⟨U+2066⟩ ok');
    // Letters of right-to-left scripts are text, not controls.
    expect(sanitizeTerminalText('שלום مرحبا')).toBe('שלום مرحبا');
  });

  it('never swallows output behind an unterminated sequence', () => {
    expect(sanitizeTerminalText('\u001b]0;never ended\n3 FAILED\n')).toBe('\u241b]0;never ended\n3 FAILED\n');
    expect(sanitizeTerminalText('\u001b[12\nx')).toBe('\u241b[12\nx');
    expect(sanitizeTerminalText('end\u001b')).toBe('end\u241b');
  });

  it('a stream split anywhere gives the same text as the whole', () => {
    const text = 'a\u001b[1;31mB\u001b[0m\r\nc\rd\u001b]0;t\u001b\\e\u001b]8;;u\u0007f\u0001\u202e\r';
    const whole = sanitizeTerminalText(text);
    for (let cut = 0; cut <= text.length; cut++) {
      const stream = new TerminalTextStream();
      expect(stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.end()).toBe(whole);
    }
  });
});
