/**
 * Command output made safe to show as plain text: terminal escapes are removed and controls made
 * visible, so what the model, the journal and a terminal show is what the text says. A `\r` that would
 * overwrite "3 FAILED" with "all passed" on a terminal is shown as `␍` instead: both stay readable.
 *
 * - CSI sequences (`ESC [ … final`: colours, cursor moves, erases) and string sequences (OSC `ESC ]`,
 *   DCS `ESC P`, SOS, PM, APC, ended by BEL or `ESC \`: titles, hyperlinks) are removed, as are other
 *   two- or three-character escapes (`ESC =`, `ESC ( B`).
 * - `\r\n` becomes `\n`; any other `\r` becomes `␍`.
 * - `\t` and `\n` stay; every other C0 control and DEL becomes its Unicode picture (`␛`, `␇`, `␈`, `␡`);
 *   C1 controls (U+0080–U+009F, which some terminals obey as escapes) become `�`.
 * - Bidi controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks U+200E,
 *   U+200F and U+061C) become their code point, `⟨U+202E⟩`: they reorder what is shown ("Trojan source"),
 *   so a line could read as something else than what it says. Right-to-left letters are text and stay.
 * - A sequence that never ends properly (a newline inside it, or longer than the bounds below) is shown
 *   as text, its ESC as `␛`: output is never swallowed by an unterminated escape.
 *
 * It works on a stream of chunks; a sequence or a `\r\n` split across chunks is handled as if whole, so
 * `sanitizeTerminalText(a + b)` equals `push(a) + push(b) + end()`.
 */

import { visibleCodePoint } from './visibleText';

const MAX_CSI_CHARS = 64;
const MAX_STRING_CHARS = 4096;

const ESC = 0x1b;

type State =
  | { kind: 'text' }
  | { kind: 'cr' }
  | { kind: 'esc' }
  /** `ESC` then intermediates (0x20–0x2F), waiting for the final byte. */
  | { kind: 'escInter'; seen: string }
  | { kind: 'csi'; seen: string }
  /** Inside OSC/DCS/SOS/PM/APC; `esc` when the last character was ESC (a possible `ESC \`). */
  | { kind: 'string'; seen: string; esc: boolean };

export function sanitizeTerminalText(text: string): string {
  const stream = new TerminalTextStream();
  return stream.push(text) + stream.end();
}

/** The bidi controls made visible (the same as `visibleText.ts` lists among the hidden characters). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Whether the text would be changed by `sanitizeTerminalText` (cheap check for the common case). */
export function hasTerminalControls(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text);
}

export class TerminalTextStream {
  private state: State = { kind: 'text' };

  push(chunk: string): string {
    if (this.state.kind === 'text' && !hasTerminalControls(chunk)) return chunk;
    let out = '';
    for (let i = 0; i < chunk.length; i++) out += this.step(chunk.charCodeAt(i), chunk[i]!);
    return out;
  }

  end(): string {
    const state = this.state;
    this.state = { kind: 'text' };
    switch (state.kind) {
      case 'text':
        return '';
      case 'cr':
        return '\u240d';
      case 'esc':
        return '\u241b';
      case 'escInter':
      case 'csi':
        return visible(`\u001b${state.kind === 'csi' ? '[' : ''}${state.seen}`);
      case 'string':
        return visible(`\u001b${state.seen}${state.esc ? '\u001b' : ''}`);
    }
  }

  /** One character in; what it makes visible (often nothing while a sequence is open). */
  private step(code: number, char: string): string {
    const state = this.state;
    switch (state.kind) {
      case 'text':
        return this.text(code, char);
      case 'cr':
        this.state = { kind: 'text' };
        if (code === 0x0a) return '\n';
        return '\u240d' + this.text(code, char);
      case 'esc':
        if (char === '[') this.state = { kind: 'csi', seen: '' };
        else if (char === ']' || char === 'P' || char === 'X' || char === '^' || char === '_')
          this.state = { kind: 'string', seen: char, esc: false };
        else if (code >= 0x20 && code <= 0x2f) this.state = { kind: 'escInter', seen: char };
        else if (code >= 0x30 && code <= 0x7e) this.state = { kind: 'text' };
        else {
          this.state = { kind: 'text' };
          return '\u241b' + this.text(code, char);
        }
        return '';
      case 'escInter':
        if (code >= 0x20 && code <= 0x2f && state.seen.length < MAX_CSI_CHARS) {
          this.state = { kind: 'escInter', seen: state.seen + char };
          return '';
        }
        this.state = { kind: 'text' };
        if (code >= 0x30 && code <= 0x7e) return '';
        return visible(`\u001b${state.seen}`) + this.text(code, char);
      case 'csi':
        if (code >= 0x40 && code <= 0x7e) {
          this.state = { kind: 'text' };
          return '';
        }
        if (code >= 0x20 && code <= 0x3f && state.seen.length < MAX_CSI_CHARS) {
          this.state = { kind: 'csi', seen: state.seen + char };
          return '';
        }
        this.state = { kind: 'text' };
        return visible(`\u001b[${state.seen}`) + this.text(code, char);
      case 'string':
        if (state.esc) {
          // `ESC \` ends the string; any other ESC ends it too and starts a new sequence (as terminals do).
          this.state = { kind: 'text' };
          if (char === '\\') return '';
          this.state = { kind: 'esc' };
          return this.step(code, char);
        }
        if (code === 0x07) {
          this.state = { kind: 'text' };
          return '';
        }
        if (code === ESC) {
          this.state = { kind: 'string', seen: state.seen, esc: true };
          return '';
        }
        if (code === 0x0a || state.seen.length >= MAX_STRING_CHARS) {
          this.state = { kind: 'text' };
          return visible(`\u001b${state.seen}`) + this.text(code, char);
        }
        this.state = { kind: 'string', seen: state.seen + char, esc: false };
        return '';
    }
  }

  private text(code: number, char: string): string {
    if (code === ESC) {
      this.state = { kind: 'esc' };
      return '';
    }
    if (code === 0x0d) {
      this.state = { kind: 'cr' };
      return '';
    }
    return visibleChar(code, char);
  }
}

function visibleChar(code: number, char: string): string {
  if (code === 0x09 || code === 0x0a) return char;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if (code >= 0x80 && code <= 0x9f) return '\ufffd';
  if (code >= 0x061c && BIDI_CONTROL.test(char)) return visibleCodePoint(char);
  return char;
}

/** Text of an unfinished sequence shown as it is, its controls as pictures. */
function visible(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += visibleChar(text.charCodeAt(i), text[i]!);
  return out;
}
