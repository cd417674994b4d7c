import type { ChatStore } from './chatStore';

/**
 * Things to try, for a chat with nothing in it yet (issue 34, item 12: the empty chat suggested nothing).
 * A suggestion goes into the input to be edited or sent, never sent by the click itself.
 */
const SUGGESTIONS: readonly string[] = [
  'Explain how this project is organised and which files to read first.',
  'Run the tests and fix what fails.',
  'Review my uncommitted changes: @changes',
  'Find where errors are handled and say what could go wrong.',
];

export function EmptyChat({ store }: { store: ChatStore }) {
  return (
    <div class="empty-chat">
      <p class="quiet">Ask Cairn to read, search, edit or run something in this folder. To start, pick one to edit and send:</p>
      <ul class="suggestions" aria-label="Things to try">
        {SUGGESTIONS.map((text) => (
          <li key={text}>
            <button type="button" class="suggestion" onClick={() => store.insertIntoInput(text)}>
              {text}
            </button>
          </li>
        ))}
      </ul>
      <p class="quiet">
        Type @ to attach a file, / for commands. Every tool result gets an id such as #a3f2; activate one to see what was stored in full.
      </p>
    </div>
  );
}
