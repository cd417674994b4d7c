import { describe, expect, it } from 'vitest';
import { ProtocolError, parseWebviewMessage, MESSAGE_LIMITS } from './protocolValidation';

describe("the webview's messages for issue 17's items are checked", () => {
  it('accepts a code block action with its code and a language name, and the turn links', () => {
    expect(parseWebviewMessage({ type: 'codeBlock', action: 'insert', code: 'x', language: 'c++' })).toEqual({
      type: 'codeBlock',
      action: 'insert',
      code: 'x',
      language: 'c++',
    });
    expect(parseWebviewMessage({ type: 'showTurn', turn: 3 })).toEqual({ type: 'showTurn', turn: 3 });
    expect(parseWebviewMessage({ type: 'showTurnRequests', turn: 0 })).toEqual({ type: 'showTurnRequests', turn: 0 });
  });

  it('refuses an unknown action, a language that is not a name, code too long, a negative turn, extra fields', () => {
    const refused = [
      { type: 'codeBlock', action: 'run', code: 'x' },
      { type: 'codeBlock', action: 'copy', code: 'x', language: 'ts"><img' },
      { type: 'codeBlock', action: 'copy', code: 'x'.repeat(MESSAGE_LIMITS.sendChars + 1) },
      { type: 'codeBlock', action: 'copy', code: 'x', path: '/etc/passwd' },
      { type: 'showTurn', turn: -1 },
      { type: 'showTurnRequests', turn: 1.5 },
    ];
    for (const message of refused) expect(parseWebviewMessage(message)).toBeInstanceOf(ProtocolError);
  });
});

describe('edit and resend, regenerate (item 17)', () => {
  it('accepts an edited message with its turn and text, and the regenerate action', () => {
    expect(parseWebviewMessage({ type: 'editMessage', turn: 2, text: 'again' })).toEqual({ type: 'editMessage', turn: 2, text: 'again' });
    expect(parseWebviewMessage({ type: 'action', action: 'regenerate' })).toEqual({ type: 'action', action: 'regenerate' });
  });

  it('refuses a blank or too long text, a turn that is not a number, extra fields', () => {
    const refused = [
      { type: 'editMessage', turn: 1, text: '   ' },
      { type: 'editMessage', turn: 1, text: 'x'.repeat(MESSAGE_LIMITS.sendChars + 1) },
      { type: 'editMessage', turn: '1', text: 'x' },
      { type: 'editMessage', turn: 1, text: 'x', generation: 0 },
    ];
    for (const message of refused) expect(parseWebviewMessage(message)).toBeInstanceOf(ProtocolError);
  });
});
