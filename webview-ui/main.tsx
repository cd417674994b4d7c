/**
 * The webview bundle's entry: one bundle renders the chat or the context report, chosen by the root's
 * `data-view` attribute (set by renderWebviewHtml) or by the host's `init` message.
 */
import { signal } from '@preact/signals';
import { render } from 'preact';
import type { WebviewKind } from '../src/shared/protocol';
import { BridgeContext } from './common/bridgeContext';
import { HostBridge } from './common/hostBridge';
import { observeKnownIds } from './common/knownIds';
import { ChatStore } from './chat/chatStore';
import { ChatView } from './chat/ChatView';
import { ReportStore } from './report/reportStore';
import { ReportView } from './report/ReportView';
import { ContextStore } from './report/contextStore';

const root = document.getElementById('root');
if (!root) throw new Error('Cairn webview: the page has no #root element; it must come from renderWebviewHtml.');

const bridge = new HostBridge(acquireVsCodeApi(), window);
const view = signal<WebviewKind>(root.dataset.view === 'report' ? 'report' : 'chat');
const chat = new ChatStore(bridge);
const report = new ReportStore(bridge);
const context = new ContextStore(bridge);
bridge.onNotification((message) => {
  if (message.type === 'init') view.value = message.view;
  observeKnownIds(message);
});

function App() {
  return (
    <BridgeContext.Provider value={bridge}>
      {view.value === 'report' ? <ReportView store={report} context={context} /> : <ChatView store={chat} />}
    </BridgeContext.Provider>
  );
}

render(<App />, root);
bridge.notify({ type: 'ready', view: view.value });
