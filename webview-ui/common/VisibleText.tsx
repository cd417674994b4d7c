import { splitHidden } from '../../src/shared/protocol';

/**
 * Text with every control, line-separator, bidi and zero-width character shown as `⟨U+XXXX⟩` in its own
 * style, so what the user approves reads as what it is (a `\r` cannot hide the start of a line, a U+202E
 * cannot reverse a path). `\n` and `\t` stay as they are.
 */
export function VisibleText({ text }: { text: string }) {
  return (
    <>
      {splitHidden(text).map((segment, i) =>
        segment.kind === 'hidden' ? (
          <span key={i} class="hidden-char" title="A hidden character">
            {segment.shown}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
