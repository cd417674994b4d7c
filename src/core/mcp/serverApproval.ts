/**
 * Whether a workspace's MCP server may start, as VS Code decides for its own: the first time a trusted
 * workspace's `.vscode/mcp.json` names a server, the user is asked once, shown what it would run; the answer
 * is remembered (by the host, in the editor's user-level storage, which the repository cannot write) against
 * the server's identity, its definition hash included; a changed definition is asked about again. The
 * user's own servers (`cairn.mcp.servers`) start as they always did: the user wrote them.
 *
 * Pure: the decision, the question's text and the stored answers' shape. The host asks and stores
 * (`src/host/mcpServerApprovals.ts`).
 */
import { showHidden } from '../text/visibleText';
import type { McpServerEntry } from './config';
import type { McpServerIdentity } from './types';

/** One remembered answer: the user allowed (or refused) the server `name` of the folder `origin`, defined as hashed. */
export interface StoredServerAnswer {
  readonly origin: string;
  readonly name: string;
  readonly definitionHash: string;
  readonly allowed: boolean;
  /** Where it is written, for the list of answers: `.vscode/mcp.json of folder "app"`. */
  readonly source: string;
}

export type ServerStartVerdict =
  | { readonly kind: 'start' }
  /** The user refused this very definition. */
  | { readonly kind: 'refused' }
  /** Nothing remembered for it; `changed`: an answer was given for an earlier definition of it. */
  | { readonly kind: 'ask'; readonly changed: boolean; readonly before?: StoredServerAnswer };

export function serverStartVerdict(identity: McpServerIdentity, answers: readonly StoredServerAnswer[]): ServerStartVerdict {
  if (identity.scope === 'user') return { kind: 'start' };
  const answer = answers.find((a) => a.origin === identity.origin && a.name === identity.name);
  if (!answer) return { kind: 'ask', changed: false };
  if (answer.definitionHash !== identity.definitionHash) return { kind: 'ask', changed: true, before: answer };
  return answer.allowed ? { kind: 'start' } : { kind: 'refused' };
}

/** The answers as stored; anything malformed is dropped (that server is asked about again). */
export function parseStoredAnswers(value: unknown): StoredServerAnswer[] {
  if (!Array.isArray(value)) return [];
  const answers: StoredServerAnswer[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { origin, name, definitionHash, allowed, source } = item as Record<string, unknown>;
    if (typeof origin !== 'string' || typeof name !== 'string' || typeof allowed !== 'boolean') continue;
    if (typeof definitionHash !== 'string' || !/^[0-9a-f]{64}$/.test(definitionHash)) continue;
    answers.push({ origin, name, definitionHash, allowed, source: typeof source === 'string' ? source : name });
  }
  return answers;
}

/** The answers with `answer` in place of any earlier one for the same server (one answer per folder and name). */
export function withAnswer(answers: readonly StoredServerAnswer[], answer: StoredServerAnswer): StoredServerAnswer[] {
  return [...answers.filter((a) => a.origin !== answer.origin || a.name !== answer.name), answer];
}

/** Longest text of one field shown in the question; the rest is counted, to be read in the file. */
const MAX_SHOWN_CHARS = 1_000;

/**
 * A value from the file as the question shows it: quoted as JSON (a line break or a quote cannot fake
 * another line of the dialog), every hidden character visible (`⟨U+202E⟩`), bounded.
 */
function shown(value: unknown): string {
  const text = showHidden(JSON.stringify(value));
  if (text.length <= MAX_SHOWN_CHARS) return text;
  // Never split a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[MAX_SHOWN_CHARS - 1]!) ? MAX_SHOWN_CHARS - 1 : MAX_SHOWN_CHARS;
  return `${text.slice(0, end)}… (${text.length - end} more characters: read them in the file before you allow it)`;
}

function keys(record: Readonly<Record<string, string>>): string {
  return Object.keys(record)
    .sort()
    .map((key) => shown(key))
    .join(', ');
}

/** The question: a short message and the definition in full (env and header keys only, never their values). */
export function serverStartQuestion(
  entry: McpServerEntry,
  folderPath: string,
  verdict: Extract<ServerStartVerdict, { kind: 'ask' }>,
): { readonly message: string; readonly detail: string } {
  const name = shown(entry.name);
  const message = verdict.changed
    ? `The MCP server ${name} of this workspace changed since you ${verdict.before?.allowed ? 'allowed' : 'refused'} it. Start it as it is now?`
    : `Start the MCP server ${name} of this workspace?`;
  const lines = [`Defined in ${showHidden(entry.source)} (${shown(folderPath)}).`];
  const transport = entry.transport;
  if (transport.type === 'stdio') {
    lines.push(`Command: ${shown(transport.command)}`, `Arguments: ${shown(transport.args)}`);
    if (Object.keys(transport.env).length > 0) lines.push(`Environment variables (values not shown): ${keys(transport.env)}`);
    if (transport.envFile !== undefined) lines.push(`Env file: ${shown(transport.envFile)}`);
    if (transport.cwd !== undefined) lines.push(`Working folder: ${shown(transport.cwd)}`);
    lines.push('', 'It runs as a program on this computer, with your permissions.');
  } else {
    lines.push(`URL (${transport.type}): ${shown(transport.url)}`);
    if (Object.keys(transport.headers).length > 0) lines.push(`Headers (values not shown): ${keys(transport.headers)}`);
    lines.push('', 'Cairn connects to it, and its tools get what the model sends them.');
  }
  lines.push(
    'Cairn remembers your answer for this definition and asks again if the file changes it. "Cairn: Manage MCP Server Approvals" forgets an answer.',
  );
  return { message, detail: lines.join('\n') };
}

/** Why a refused server did not start, and how to start it. */
export function refusedDetail(entry: McpServerEntry): string {
  return `You chose not to start the MCP server "${entry.name}" of ${entry.source}. To start it, forget that answer with "Cairn: Manage MCP Server Approvals" and start a new session (Cairn asks again); Cairn also asks again if its definition changes.`;
}

/** Why a server whose question was closed unanswered did not start. */
export function unansweredDetail(entry: McpServerEntry): string {
  return `The MCP server "${entry.name}" of ${entry.source} was not started: its question was closed without an answer. Cairn asks again when the next session starts (Cairn: New Session).`;
}
