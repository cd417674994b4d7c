import { contextLeftOf } from '../core/compaction/contextLeft';
import { errorMessage } from '../core/errorMessage';
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { CompactionDetails } from '../shared/protocol';
import type { ContextDrop } from './contextDrop';
import { withContextMentionCandidates } from './contextMentions';
import type { HostLog } from './hostPorts';
import type { JournalDigest } from './journalDigest';
import type { SessionControllerDeps } from './sessionControllerDeps';
import type { RequestSources } from './webviewRequests';

/** What the views' requests read, as the session controller has it. */
export interface ViewRequestContext {
  /** The open session, opened if need be: only a request that needs it (a stored result, the turns) opens one. */
  readonly session: () => Promise<AssembledSession>;
  /** The open session without opening one (the Savings tab of no session yet). */
  readonly current: () => AssembledSession | undefined;
  readonly digest: () => Promise<JournalDigest>;
  readonly preview: () => CompactionDetails | undefined;
  readonly context: Pick<ContextDrop, 'inventory' | 'preview' | 'drop'>;
  readonly deps: Pick<SessionControllerDeps, 'savings' | 'modelChoices' | 'findFiles' | 'contextMentions'>;
  readonly log: HostLog;
}

/** The sources `respondTo` answers a view's request from (`webviewRequests.ts`). */
export function viewRequestSources(from: ViewRequestContext): RequestSources {
  const { deps } = from;
  return {
    readLines: async (id, offset, limit, maxChars) => (await from.session()).journal.readLines(id, offset, limit, maxChars),
    readBracket: async (id) => (await from.session()).journal.readBracket(id),
    digest: async () => {
      await from.session();
      return from.digest();
    },
    preview: from.preview,
    contextLeft: async (generation) => {
      const { journal, composer } = await from.session();
      return contextLeftOf(
        () => journal.readAll(),
        generation,
        (text) => composer.estimator.countText(text),
      );
    },
    context: from.context,
    ...(deps.savings ? { savings: savingsSource(deps.savings, from.current) } : {}),
    ...(deps.modelChoices ? { models: deps.modelChoices } : {}),
    ...(deps.findFiles || deps.contextMentions ? { mentionCandidates: (query: string) => mentionCandidates(query, deps, from.log) } : {}),
  };
}

/** The Savings tab's figures: the open session's (without opening one) and every session's of the last days. */
function savingsSource(
  report: NonNullable<SessionControllerDeps['savings']>,
  current: () => AssembledSession | undefined,
): NonNullable<RequestSources['savings']> {
  return {
    figures: () => report.figures(current()?.journal.sessionDir),
    exportCsv: () => report.exportCsv(current()?.journal.sessionDir, current()?.journal.sessionId),
  };
}

/** What `@` completes: the editor's context by name (when it can be read), then the workspace's files. */
async function mentionCandidates(
  query: string,
  deps: Pick<SessionControllerDeps, 'findFiles' | 'contextMentions'>,
  log: HostLog,
): Promise<readonly string[]> {
  if (!deps.contextMentions) return deps.findFiles ? deps.findFiles(query) : [];
  // The names are offered even when the file search fails (the menu would show nothing otherwise).
  const files = deps.findFiles
    ? await deps.findFiles(query).catch((error: unknown) => {
        log.warn(`Workspace files could not be listed for @ completion: ${errorMessage(error)}`);
        return [];
      })
    : [];
  return withContextMentionCandidates(query, files);
}
