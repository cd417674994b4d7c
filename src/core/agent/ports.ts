import type { RequestSnapshot } from '../compose/snapshot';
import type { LedgerResult, ToolCall } from '../ledger/types';
import type { Message, ModelRequest, ModelUsage, RequestPurpose, TextBlock } from '../model/types';
import type { ConversationEntry } from '../conversation/conversation';
import type { Decision } from '../compose/decisions';

/** What the loop needs of the result ledger (`ResultLedger` satisfies it). */
export interface ToolExecutor {
  execute(call: ToolCall, context?: { signal?: AbortSignal; onOutput?: (chunk: string) => void }): Promise<LedgerResult>;
  answerWithoutRunning(call: ToolCall, message: string): Promise<LedgerResult>;
}

/** A choice made between two requests that the context report explains, with the result ids involved. */
export type LoopDecision = Decision;

/** What the loop needs of the composer (`Composer` satisfies it). */
export interface RequestComposer {
  compose(input: {
    model: string;
    maxTokens: number;
    generation: number;
    conversation: readonly Message[];
    purpose: RequestPurpose;
    decisions: readonly LoopDecision[];
  }): { request: ModelRequest; snapshot: RequestSnapshot };
  observeUsage(snapshot: RequestSnapshot, usage: ModelUsage): RequestSnapshot;
  rulesDelta(): Promise<TextBlock[]>;
}

/** Where the loop writes what happened, before the model is shown it (the session journal). */
export interface SessionRecorder {
  conversationEntry(generation: number, entry: ConversationEntry, index: number): Promise<void>;
  snapshot(snapshot: RequestSnapshot): Promise<void>;
  notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void>;
}
