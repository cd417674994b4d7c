import type { AssembledSession } from '../core/session/node/sessionAssembly';
import { errorMessage } from '../core/errorMessage';
import type {
  ColdSendChoice,
  HostAction,
  HostToWebview,
  QueuedMessageAction,
  TurnView,
  WebviewKind,
  WebviewNotification,
} from '../shared/protocol';
import type { PermissionMode } from '../core/agent/permissionMode';
import type { PlanStartMode } from '../shared/permissionModeView';
import type { PastedImage } from '../shared/protocolChatViews';
import type { CheckpointActions } from './checkpointActions';
import type { CompactionRunner } from './compactionRunner';
import { mentionText } from './fileMentions';
import type { ViewSink } from './hostPorts';
import type { LiveTurn } from './liveTurn';
import type { MessageBranches } from './messageBranches';
import type { OpenViews } from './openViews';
import { CONTINUE_TEXT } from './runOutcome';
import type { SessionControllerDeps } from './sessionControllerDeps';
import { NoSessionError } from './sessionNotices';
import type { SkillsHost } from './skillsHost';
import type { CustomCommandsHost } from './customCommandsHost';
import { openFromWebview } from './webviewOpens';

/**
 * What a view's notification acts on: the `SessionController`'s parts and actions, handed over as a port
 * (the controller builds it once; this module never reaches into the controller otherwise).
 */
export interface NotificationPort {
  readonly deps: Pick<
    SessionControllerDeps,
    'log' | 'hasApiKey' | 'server' | 'approver' | 'editor' | 'workspace' | 'relativePathOf' | 'allowances'
  >;
  readonly views: Pick<OpenViews, 'open' | 'opened' | 'postPending' | 'deliver'>;
  readonly liveTurn: Pick<LiveTurn, 'answer'>;
  readonly skills: Pick<SkillsHost, 'refreshAll' | 'toggle'>;
  readonly customCommands: Pick<CustomCommandsHost, 'refresh'>;
  readonly branches: Pick<MessageBranches, 'regenerate' | 'editAndResend'>;
  readonly compaction: Pick<CompactionRunner, 'act' | 'run'>;
  readonly checkpoints: Pick<CheckpointActions, 'openChange' | 'restoreToTurn'> | undefined;
  /** A run is going on. */
  isBusy(): boolean;
  /** The last message the user typed, from the journal (Retry's label, or its text once every message has its answer). */
  lastSent(): Promise<string | undefined>;
  /** A message kept because it could not go out (no key). */
  /** The message kept for want of a key, with the images pasted with it. */
  unsent(): { readonly text: string; readonly images: readonly PastedImage[] } | undefined;
  session(): Promise<AssembledSession>;
  /** Posts the view's `init`; resolves to the turns it showed. */
  sendInit(sink: ViewSink, view: WebviewKind): Promise<readonly TurnView[]>;
  post(sink: ViewSink, message: HostToWebview): void;
  postError(kind: string, message: string, action?: HostAction): void;
  send(text: string, options?: { readonly retry?: boolean; readonly images?: readonly PastedImage[] }): Promise<void>;
  cancel(): void;
  pickModel(model: string): Promise<void>;
  /** The chat's mode control (issue 32 §1): the user's `cairn.permissionMode`. */
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** "Start it" under a plan: switch to `mode`, then send the go-ahead. */
  startPlan(mode: PlanStartMode): Promise<void>;
  /** A queued message: send it now, take it back into the input, or remove it (`QueuedMessages.act`). */
  actOnQueued(sink: ViewSink, id: number, action: QueuedMessageAction): Promise<void>;
  /** The cold-send notice's answer (`ColdSendGate.answer`). */
  coldSendChoice(id: number, choice: ColdSendChoice, dontAskAgain: boolean): void;
}

/** Acts on one notification from a view (already validated by `parseWebviewMessage`). */
export async function handleNotification(port: NotificationPort, sink: ViewSink, message: WebviewNotification): Promise<void> {
  switch (message.type) {
    case 'ready': {
      port.views.open(sink, message.view);
      // The first run: a welcome that says what to do, not an error. Told before the session opens (which takes
      // a while), so the chat never shows itself ready to take a message first (issue 34, item 12).
      if (message.view === 'chat' && !(await port.deps.hasApiKey())) {
        const server = port.deps.server?.();
        port.post(sink, { type: 'welcome', welcome: server ? { server } : {} });
      }
      let failure: unknown;
      await port.session().catch((error: unknown) => {
        failure = error;
        port.deps.log.error(`No session: ${errorMessage(error)}`);
      });
      port.views.opened(sink, await port.sendInit(sink, message.view));
      port.views.postPending(sink, message.view);
      if (failure !== undefined && message.view === 'chat') {
        port.post(sink, {
          type: 'error',
          turn: 0,
          kind: 'no_session',
          message: errorMessage(failure),
          ...(failure instanceof NoSessionError ? {} : { action: 'newSession' as const }),
        });
        return;
      }
      if (message.view === 'chat') {
        await port.skills.refreshAll().catch(() => undefined);
        await port.customCommands.refresh().catch(() => undefined);
      }
      return;
    }
    case 'send':
      await port.send(message.text, message.images ? { images: message.images } : {});
      return;
    case 'cancel':
      port.cancel();
      return;
    case 'approval':
      if (!port.deps.approver.answer(message.callId, message.decision, message.reason, message.agent)) {
        port.deps.log.warn(`An approval for ${message.callId} arrived, but no tool call is waiting for one; it was ignored.`);
        return;
      }
      // The view that answered shows the answer at once; a view opened later must too.
      port.liveTurn.answer(message.callId, message.decision, message.agent);
      return;
    case 'reviewChange':
      if (!(await port.deps.approver.openReview(message.callId, message.path, message.agent))) {
        port.deps.log.warn(`No change of ${message.callId} waits for review; the diff editor was not opened.`);
      }
      return;
    case 'revokeAllowance':
      if (!(await port.deps.allowances?.revoke(message.id))) port.deps.log.warn(`No allowance ${message.id} to revoke.`);
      return;
    case 'action':
      if (message.action === 'retry') {
        const last = await port.lastSent();
        if (last !== undefined) await port.send(last, { retry: true });
        return;
      }
      if (message.action === 'resend') {
        const unsent = port.unsent();
        if (unsent !== undefined) await port.send(unsent.text, unsent.images.length > 0 ? { images: unsent.images } : {});
        return;
      }
      if (message.action === 'continue') {
        await port.send(CONTINUE_TEXT);
        return;
      }
      if (message.action === 'regenerate') {
        await port.branches.regenerate().catch((error: unknown) => port.postError('branch', errorMessage(error)));
        return;
      }
      await port.deps.editor.runAction(message.action);
      return;
    // The report's rows and the chat's turns link to each other (issue 17, item 11).
    case 'showTurn':
      port.views.deliver({ type: 'revealTurn', turn: message.turn }, 'chat');
      await port.deps.editor.showView('chat');
      return;
    case 'showTurnRequests':
      port.views.deliver({ type: 'selectTurn', turn: message.turn }, 'report');
      await port.deps.editor.showView('report');
      return;
    // The meter's "In context" and a tool line's: the report opens on what the context holds (issue 35).
    case 'showContext':
      port.views.deliver({ type: 'showContext', resultIds: message.resultIds }, 'report');
      await port.deps.editor.showView('report');
      return;
    case 'openResult':
    case 'copyResult':
    case 'openFile':
    case 'openLink':
    case 'codeBlock': {
      // The session is opened only for a stored result; a file or a link does not need one.
      const journal = { readResult: async (id: string) => (await port.session()).journal.readResult(id) };
      await openFromWebview(message, { journal, editor: port.deps.editor, workspace: port.deps.workspace, log: port.deps.log });
      return;
    }
    case 'compaction':
      await port.compaction.act(message.action);
      return;
    case 'openChange':
      await port.checkpoints?.openChange(message.checkpointId, message.path);
      return;
    case 'restoreToTurn':
      if (port.isBusy()) port.postError('busy', 'Files cannot be restored while Cairn is working. Wait for it to finish, or cancel it.');
      else await port.checkpoints?.restoreToTurn(message.turn);
      return;
    case 'editMessage':
      await port.branches
        .editAndResend(message.turn, message.text)
        .catch((error: unknown) => port.postError('branch', errorMessage(error)));
      return;
    case 'dropFiles': {
      const paths = message.uris.map((uri) => port.deps.relativePathOf?.(uri));
      const mentions = paths.filter((path): path is string => path !== undefined).map((path) => mentionText(path));
      if (mentions.length < paths.length)
        port.deps.log.warn(`${paths.length - mentions.length} dropped file(s) outside the workspace were not added.`);
      if (mentions.length > 0) port.post(sink, { type: 'insertText', text: `${mentions.join(' ')} ` });
      return;
    }
    case 'pickModel':
      try {
        await port.pickModel(message.model);
      } catch (error) {
        port.deps.log.error(`The model could not be changed to ${message.model}: ${errorMessage(error)}`);
        port.postError('model', `The model could not be changed: ${errorMessage(error)}`, 'openSettings');
      }
      return;
    case 'setPermissionMode':
    case 'startPlan':
      try {
        await (message.type === 'startPlan' ? port.startPlan(message.mode) : port.setPermissionMode(message.mode));
      } catch (error) {
        port.deps.log.error(`The permission mode could not be changed to ${message.mode}: ${errorMessage(error)}`);
        port.postError('permission_mode', `The permission mode could not be changed: ${errorMessage(error)}`, 'openSettings');
      }
      return;
    case 'compact':
      // The chat's "Compact…": the same run as the palette's, its failures shown in the chat.
      try {
        await port.compaction.run(message.instructions?.trim() || undefined, message.preview);
      } catch (error) {
        port.postError('compaction', errorMessage(error));
      }
      return;
    case 'toggleSkill':
      await port.skills.toggle(message.name, message.active);
      return;
    case 'queuedMessage':
      await port.actOnQueued(sink, message.id, message.action);
      return;
    case 'coldSendChoice':
      port.coldSendChoice(message.id, message.choice, message.dontAskAgain);
      return;
  }
}
