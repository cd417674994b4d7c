/**
 * A FAKE VS Code host for the browser tests: it stands in for `acquireVsCodeApi()` and the extension
 * host behind it, playing a recorded session (fixtures/session.json) to the real webview bundle.
 * It checks every message the webview sends with the real `parseWebviewMessage`, records them for the
 * test to assert on, and answers requests from the recording. Bundled by esbuild and injected with
 * Playwright's addInitScript, so it runs before `dist/webview.js`.
 */
import type {
  CompactionDetails,
  ContextInventoryView,
  DropPreviewView,
  SavingsView,
  HostNotification,
  HostToWebview,
  InitMessage,
  ModelChoices,
  TurnView,
  WebviewKind,
} from '../../src/shared/protocol';
import { errorResponseTo, responseTo } from '../../src/shared/protocol';
import { ProtocolError, parseWebviewMessage } from '../../src/shared/protocolValidation';
import { THEME_BODY_CLASS, THEMES, type ThemeName } from './themes';

export type ScriptStep = HostNotification | { readonly pause: string };

export interface SessionRecording {
  readonly chatInit: InitMessage;
  readonly script: readonly ScriptStep[];
  readonly olderTurns: readonly TurnView[];
  readonly recalls: Readonly<Record<string, { readonly bracket: string; readonly text: string }>>;
  readonly compactionDetails: Readonly<Record<string, CompactionDetails>>;
  readonly reportInit: InitMessage;
  readonly reportScript: readonly ScriptStep[];
  /** What the model picker's `models` request is answered with (absent: an error). */
  readonly models?: ModelChoices;
  /** The workspace's files, for `@` completion (`mentionCandidates`). */
  readonly files?: readonly string[];
  /** What the report's "In context now" is answered with (issue 35; absent: an error, as with no session). */
  readonly context?: ContextInventoryView;
  /** What a drop preview of any choice is answered with; a drop answers it too and makes the chosen results one line. */
  readonly dropPreview?: DropPreviewView;
  /** What the report's Savings tab is answered with (issue 35 §4; absent: an error, as in a window without sessions). */
  readonly savings?: SavingsView;
}

export interface FakeHostSetup {
  readonly recording: SessionRecording;
  readonly theme: ThemeName;
}

declare global {
  interface Window {
    __cairnFakeHostSetup: FakeHostSetup;
    fakeHost: FakeVsCodeHost;
  }
}

export interface ViolationRecord {
  readonly directive: string;
  readonly blockedURI: string;
}

export class FakeVsCodeHost {
  /** Every message the webview posted, as posted. */
  readonly received: unknown[] = [];
  /** Messages `parseWebviewMessage` refused (the webview must never send one). */
  readonly refused: string[] = [];
  readonly violations: ViolationRecord[] = [];
  /** What the webview keeps with setState (VS Code persists it); it must hold nothing the session said. */
  state: unknown;
  private cursor = 0;
  private view: WebviewKind = 'chat';
  /** The context as drops left it (a fake's drop: the chosen results become one line). */
  private context: ContextInventoryView | undefined;

  constructor(private readonly recording: SessionRecording) {
    this.context = recording.context;
  }

  acquire(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void } {
    return {
      postMessage: (message) => this.receive(message),
      getState: () => this.state,
      setState: (state) => {
        this.state = structuredClone(state);
      },
    };
  }

  /** Sends one message as the host would (asynchronously, like VS Code's postMessage). */
  post(message: HostToWebview): void {
    const data = structuredClone(message);
    setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data })), 0);
  }

  /** Plays the recording up to (not including) the pause with this label; returns the steps sent. */
  playUntil(label: string): number {
    const script = this.view === 'report' ? this.recording.reportScript : this.recording.script;
    const end = script.findIndex((step, i) => i >= this.cursor && 'pause' in step && step.pause === label);
    if (end === -1) throw new Error(`The recording has no pause "${label}" after step ${this.cursor}.`);
    let sent = 0;
    for (const step of script.slice(this.cursor, end)) {
      if ('pause' in step) continue;
      this.post(step);
      sent++;
    }
    this.cursor = end + 1;
    return sent;
  }

  messagesOfType(type: string): unknown[] {
    return this.received.filter((m) => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type);
  }

  private receive(raw: unknown): void {
    this.received.push(structuredClone(raw));
    const message = parseWebviewMessage(raw);
    if (message instanceof ProtocolError) {
      this.refused.push(message.message);
      return;
    }
    if (message.type === 'ready') {
      this.view = message.view;
      this.post(message.view === 'report' ? this.recording.reportInit : this.recording.chatInit);
      return;
    }
    if (message.type !== 'request') return;
    const fail = (error: string) => this.post(errorResponseTo(message, error));
    switch (message.method) {
      case 'recall': {
        const stored = this.recording.recalls[message.params.resultId];
        if (!stored) return fail(`No stored result ${message.params.resultId} in this session.`);
        const lines = stored.text.split('\n');
        const from = message.params.offset;
        const shown = lines.slice(from - 1, from - 1 + message.params.limit);
        this.post(
          responseTo(message, {
            resultId: message.params.resultId,
            bracket: stored.bracket,
            from,
            to: from + shown.length - 1,
            total: lines.length,
            lines: shown,
          }),
        );
        return;
      }
      case 'olderTurns': {
        const older = this.recording.olderTurns.filter((t) => t.index < message.params.beforeTurn);
        const page = older.slice(-message.params.limit);
        this.post(responseTo(message, { turns: page, hasOlder: older.length > page.length }));
        return;
      }
      case 'compactionDetails': {
        const details = this.recording.compactionDetails[String(message.params.generation)];
        if (!details) return fail(`No compaction of generation ${message.params.generation}.`);
        this.post(responseTo(message, details));
        return;
      }
      case 'models':
        if (!this.recording.models) return fail('The server did not answer the models call.');
        this.post(responseTo(message, this.recording.models));
        return;
      case 'mentionCandidates': {
        const query = message.params.query.toLowerCase();
        this.post(responseTo(message, { paths: (this.recording.files ?? []).filter((f) => f.toLowerCase().includes(query)) }));
        return;
      }
      case 'contextInventory':
        if (!this.context) return fail('No session is open: its context can be shown once a message has been sent.');
        this.post(responseTo(message, this.context));
        return;
      case 'savings':
        if (!this.recording.savings) return fail('This window keeps no sessions on disk, so there are no savings to add up.');
        this.post(responseTo(message, this.recording.savings));
        return;
      case 'exportSavings':
        // The host's save dialog, answered as if the user chose this path.
        this.post(responseTo(message, { path: '/home/user/cairn-savings.csv' }));
        return;
      case 'dropPreview':
      case 'dropResults': {
        const preview = this.recording.dropPreview;
        if (!preview || !this.context) return fail('Nothing to drop in this recording.');
        const answer = { ...preview, resultIds: message.params.resultIds };
        if (message.method === 'dropResults') {
          const chosen = new Set(message.params.resultIds);
          this.context = {
            ...this.context,
            items: this.context.items.map((i) => (chosen.has(i.id) ? { ...i, oneLine: true, tokens: 20 } : i)),
          };
        }
        this.post(responseTo(message, answer));
        return;
      }
    }
  }
}

/** What VS Code does for a webview: theme variables on the root element and a theme class on the body. */
function applyTheme(name: ThemeName): void {
  // Init scripts run before the document has elements; VS Code's own variables are there before the
  // page's script runs, so apply as soon as the root element exists.
  const apply = () => {
    const style = document.documentElement.style;
    for (const [variable, value] of Object.entries(THEMES[name])) style.setProperty(variable, value);
    document.body?.classList.add(THEME_BODY_CLASS[name]);
  };
  if (document.documentElement) apply();
  else {
    const observer = new MutationObserver(() => {
      if (!document.documentElement) return;
      observer.disconnect();
      apply();
    });
    observer.observe(document, { childList: true });
  }
  document.addEventListener('DOMContentLoaded', apply);
}

const setup = window.__cairnFakeHostSetup;
const host = new FakeVsCodeHost(setup.recording);
window.fakeHost = host;
document.addEventListener('securitypolicyviolation', (event) => {
  host.violations.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI });
});
applyTheme(setup.theme);
(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => host.acquire();
