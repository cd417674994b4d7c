import type {
  ColdSendView,
  AllowanceView,
  CompactionStateView,
  InitMessage,
  QueuedMessageView,
  RequestSnapshotView,
  SlashCommandView,
  TurnView,
  UsageMeterView,
  WebviewKind,
} from '../shared/protocol';
import { PROTOCOL_VERSION } from '../shared/protocol';
import type { PermissionMode } from '../core/agent/permissionMode';
import type { JournalDigest } from './journalDigest';

/** Newest turns sent with `init`; older ones come page by page. */
export const INIT_TURNS = 30;

export interface InitParts {
  /** The open session's journal, digested; none when no session is open. */
  readonly digest: JournalDigest | undefined;
  readonly hasSession: boolean;
  /** The turns to show: the journal's, with a running turn merged in by the caller. */
  readonly turns: readonly TurnView[];
  readonly resultIds: readonly string[];
  readonly busy: boolean;
  readonly meter: UsageMeterView | undefined;
  readonly compaction: CompactionStateView | null;
  readonly snapshots: readonly RequestSnapshotView[];
  readonly slashCommands?: readonly SlashCommandView[];
  /** The model the next request uses. */
  readonly model?: string | undefined;
  /** Messages sent while Cairn worked, waiting for the turn to end. */
  readonly queued?: readonly QueuedMessageView[];
  /** A message waiting on the cold-send notice. */
  readonly coldSend?: ColdSendView | undefined;
  /** What runs without asking (the chat's list). */
  readonly allowances?: readonly AllowanceView[];
  /** The permission mode in force (the chat's control). */
  readonly permissionMode?: PermissionMode | undefined;
}

/** What a view is sent when it says `ready`: the newest turns, the meter, and for the report every request. */
export function initMessage(view: WebviewKind, parts: InitParts): InitMessage {
  const { turns } = parts;
  return {
    type: 'init',
    protocolVersion: PROTOCOL_VERSION,
    view,
    sessionTitle: parts.digest?.title || (parts.hasSession ? 'New session' : 'No session'),
    turns: turns.slice(Math.max(0, turns.length - INIT_TURNS)),
    hasOlderTurns: turns.length > INIT_TURNS,
    resultIds: [...parts.resultIds],
    busy: parts.busy,
    ...(parts.meter ? { meter: parts.meter } : {}),
    ...(parts.compaction ? { compaction: parts.compaction } : {}),
    ...(view === 'report' ? { snapshots: [...parts.snapshots] } : {}),
    ...(view === 'chat' && parts.slashCommands ? { slashCommands: [...parts.slashCommands] } : {}),
    ...(parts.model ? { model: parts.model } : {}),
    ...(view === 'chat' && parts.queued && parts.queued.length > 0 ? { queued: [...parts.queued] } : {}),
    ...(view === 'chat' && parts.coldSend ? { coldSend: parts.coldSend } : {}),
    ...(view === 'chat' && parts.allowances && parts.allowances.length > 0 ? { allowances: [...parts.allowances] } : {}),
    ...(view === 'chat' && parts.permissionMode ? { permissionMode: parts.permissionMode } : {}),
  };
}
