import type { WelcomeView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';

const CONSOLE_KEYS_URL = 'https://console.anthropic.com/settings/keys';

/** The first run without a key: what Cairn is and the one step to take, instead of an error. */
export function Welcome({ welcome }: { welcome: WelcomeView }) {
  const bridge = useBridge();
  return (
    <section class="welcome" aria-label="Welcome to Cairn">
      <h2>Welcome to Cairn</h2>
      <p>
        Cairn is a coding agent that works in this folder: it reads, searches, edits and runs commands with your approval, and shows what
        every request to the model holds and costs.
      </p>
      <p>
        <button type="button" class="button primary" onClick={() => bridge.notify({ type: 'action', action: 'setApiKey' })}>
          Set API Key
        </button>
      </p>
      <ul class="welcome-steps">
        <li>
          Get a key in the{' '}
          <a href={CONSOLE_KEYS_URL} onClick={(e) => (e.preventDefault(), bridge.notify({ type: 'openLink', url: CONSOLE_KEYS_URL }))}>
            Anthropic Console
          </a>
          ; Cairn keeps it in VS Code’s secret storage.
        </li>
        <li>
          {welcome.server
            ? `Cairn talks to the server at ${welcome.server} (the cairn.baseUrl setting).`
            : 'Another Anthropic-compatible server: set cairn.baseUrl in the settings.'}{' '}
          <button type="button" class="text-button" onClick={() => bridge.notify({ type: 'action', action: 'openSettings' })}>
            Open Settings
          </button>
        </li>
        <li>
          To try Cairn without a key, run the demo from a clone of Cairn: npm start -- --demo (a local server with a scripted session).
        </li>
      </ul>
    </section>
  );
}
