/**
 * MCP server configuration as VS Code users already write it: the workspace's `.vscode/mcp.json` (JSON with
 * comments and trailing commas) and the `cairn.mcp.servers` / `cairn.mcp.inputs` settings (the same shapes as
 * mcp.json's `servers` and `inputs`). Pure: the host reads the files and asks for inputs, through the ports
 * given to `resolveMcpServer`.
 *
 * Each bad entry is a problem naming the server, what is wrong and what to write instead; the good entries
 * are kept. No problem ever quotes a substituted value, an input or an env file's contents: they may be secrets.
 */
import { isAbsolute, join } from 'node:path';
import { isCairnCredentialVariable } from '../config/withheldEnvironment';
import { parseEnvFile } from './envFile';
import { parseJsonc } from './jsonc';
import { mcpServerPrefix } from './serverPrefix';
import type { McpServerConfig } from './types';

/** A `promptString` input: asked once in the editor, kept in secret storage. */
export interface McpInputDeclaration {
  readonly id: string;
  /** Shown as the input box's prompt. */
  readonly description: string;
  /** Typed characters are hidden (and the value is never shown again). */
  readonly password: boolean;
}

export interface McpStdioEntry {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly envFile?: string;
  readonly cwd?: string;
}

export interface McpHttpEntry {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One server as written: its strings still hold their `${...}` variables. */
export interface McpServerEntry {
  readonly name: string;
  readonly scope: 'workspace' | 'user';
  /** Where it is defined: `user`, or the URI of the folder whose `.vscode/mcp.json` has it (its identity's origin). */
  readonly origin: string;
  /** Where it is written, for messages: `.vscode/mcp.json of folder "app"`, `the cairn.mcp.servers setting`. */
  readonly source: string;
  /** Where its inputs are declared, for messages. */
  readonly inputsSource: string;
  readonly transport: McpStdioEntry | McpHttpEntry;
}

export interface ParsedMcpConfig {
  readonly servers: readonly McpServerEntry[];
  readonly inputs: readonly McpInputDeclaration[];
  /** One sentence per bad entry. */
  readonly problems: readonly string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const EXAMPLE_STDIO = '{ "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }';
const EXAMPLE_HTTP = '{ "type": "http", "url": "https://example.com/mcp" }';

/** Where a file or setting's servers come from, for messages. */
export interface McpConfigSource {
  readonly scope: 'workspace' | 'user';
  /** `user`, or the folder's URI (see `McpServerEntry.origin`). */
  readonly origin: string;
  /** e.g. `.vscode/mcp.json of folder "app"`. */
  readonly label: string;
  /** Where its inputs are declared, e.g. `"inputs" of .vscode/mcp.json of folder "app"`. */
  readonly inputsLabel: string;
}

/** The text of a `.vscode/mcp.json`. */
export function parseMcpJson(text: string, source: McpConfigSource): ParsedMcpConfig {
  const parsed = parseJsonc(text);
  if (!parsed.ok)
    return { servers: [], inputs: [], problems: [`${source.label} is not valid JSON: ${parsed.error}. No server of it is started.`] };
  if (parsed.value === undefined) return { servers: [], inputs: [], problems: [] };
  if (!isObject(parsed.value)) {
    return {
      servers: [],
      inputs: [],
      problems: [`${source.label} must be an object such as { "servers": { "memory": ${EXAMPLE_STDIO} } }.`],
    };
  }
  const problems: string[] = [];
  const inputs = parseInputs(parsed.value.inputs, source.inputsLabel, problems);
  const servers = parseServers(parsed.value.servers, source, problems);
  return { servers, inputs, problems };
}

/** The values of `cairn.mcp.servers` and `cairn.mcp.inputs` (user settings). */
export function parseMcpSettings(servers: unknown, inputs: unknown, source: McpConfigSource): ParsedMcpConfig {
  const problems: string[] = [];
  return { inputs: parseInputs(inputs, source.inputsLabel, problems), servers: parseServers(servers, source, problems), problems };
}

function parseInputs(value: unknown, where: string, problems: string[]): McpInputDeclaration[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(
      `${where} must be a list such as [{ "type": "promptString", "id": "token", "description": "API token", "password": true }].`,
    );
    return [];
  }
  const byId = new Map<string, McpInputDeclaration>();
  value.forEach((entry: unknown, index) => {
    if (!isObject(entry) || typeof entry.id !== 'string' || entry.id.trim() === '') {
      problems.push(
        `${where}: entry ${index + 1} needs an "id" (text), as in { "type": "promptString", "id": "token", "description": "API token" }.`,
      );
      return;
    }
    const id = entry.id;
    if (entry.type !== 'promptString') {
      problems.push(
        `${where}: input "${id}" has "type": ${JSON.stringify(entry.type ?? null)}; Cairn asks only "promptString" inputs (a text box). Servers using it are not started.`,
      );
      return;
    }
    if (byId.has(id)) {
      problems.push(`${where}: input "${id}" is declared twice; the first is used.`);
      return;
    }
    if (entry.description !== undefined && typeof entry.description !== 'string') {
      problems.push(`${where}: input "${id}" has a "description" that is not text; it is ignored.`);
    }
    if (entry.password !== undefined && typeof entry.password !== 'boolean') {
      problems.push(`${where}: input "${id}" has "password" that is not true or false; it is taken as true (hidden).`);
    }
    const description = typeof entry.description === 'string' && entry.description.trim() !== '' ? entry.description : `Value for ${id}`;
    byId.set(id, { id, description, password: entry.password === undefined ? false : entry.password !== false });
  });
  return [...byId.values()];
}

function parseServers(value: unknown, source: McpConfigSource, problems: string[]): McpServerEntry[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) {
    problems.push(`${source.label}: "servers" must be an object of name → server, e.g. { "memory": ${EXAMPLE_STDIO} }.`);
    return [];
  }
  const servers: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const bad = (what: string): void => {
      problems.push(`${source.label}: server "${name}" ${what}. It is not started.`);
    };
    if (name.trim() === '') {
      problems.push(`${source.label}: a server has an empty name; give it one, e.g. "memory". It is not started.`);
      continue;
    }
    const transport = parseTransport(raw, bad);
    if (transport) {
      servers.push({ name, scope: source.scope, origin: source.origin, source: source.label, inputsSource: source.inputsLabel, transport });
    }
  }
  return servers;
}

function parseTransport(raw: unknown, bad: (what: string) => void): McpStdioEntry | McpHttpEntry | undefined {
  if (!isObject(raw)) {
    bad(`must be an object such as ${EXAMPLE_STDIO} or ${EXAMPLE_HTTP}`);
    return undefined;
  }
  let type = raw.type;
  if (type === undefined) {
    // VS Code infers the transport from what is given.
    if ('command' in raw && 'url' in raw) {
      bad('has both "command" and "url"; add "type": "stdio" (run a program) or "type": "http" (connect to a URL)');
      return undefined;
    }
    type = 'url' in raw ? 'http' : 'stdio';
  }
  if (type === 'stdio') return parseStdio(raw, bad);
  if (type === 'http' || type === 'sse') return parseHttp(raw, type, bad);
  bad(`has "type": ${JSON.stringify(type)}; write "stdio" (with "command") or "http" or "sse" (with "url")`);
  return undefined;
}

function parseStdio(raw: Json, bad: (what: string) => void): McpStdioEntry | undefined {
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    bad(`needs "command": the program to run, e.g. ${EXAMPLE_STDIO}`);
    return undefined;
  }
  let args: string[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === 'string')) {
      bad('has "args" that is not a list of text; write e.g. "args": ["--port", "3000"] (numbers in quotes)');
      return undefined;
    }
    args = raw.args as string[];
  }
  const env = new Map<string, string>();
  if (raw.env !== undefined) {
    if (!isObject(raw.env)) {
      bad('has "env" that is not an object; write e.g. "env": { "LOG_LEVEL": "debug" }');
      return undefined;
    }
    for (const [key, value] of Object.entries(raw.env)) {
      // VS Code's schema allows null (leave the variable as it is) and numbers.
      if (value === null) continue;
      if (typeof value === 'string') env.set(key, value);
      else if (typeof value === 'number' && Number.isFinite(value)) env.set(key, String(value));
      else {
        bad(`has "env.${key}" that is not text; write e.g. "${key}": "value"`);
        return undefined;
      }
    }
  }
  for (const key of ['envFile', 'cwd'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') {
      bad(`has "${key}" that is not text; write a path, e.g. "${key}": "\${workspaceFolder}${key === 'envFile' ? '/.env' : ''}"`);
      return undefined;
    }
  }
  return {
    type: 'stdio',
    command: raw.command,
    args,
    env: Object.fromEntries(env),
    ...(typeof raw.envFile === 'string' ? { envFile: raw.envFile } : {}),
    ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}),
  };
}

function parseHttp(raw: Json, type: 'http' | 'sse', bad: (what: string) => void): McpHttpEntry | undefined {
  if (typeof raw.url !== 'string' || raw.url.trim() === '') {
    bad(`needs "url": the server's address, e.g. ${EXAMPLE_HTTP}`);
    return undefined;
  }
  const headers = new Map<string, string>();
  if (raw.headers !== undefined) {
    if (!isObject(raw.headers) || !Object.values(raw.headers).every((v) => typeof v === 'string')) {
      bad('has "headers" that is not an object of text; write e.g. "headers": { "Authorization": "Bearer ${input:token}" }');
      return undefined;
    }
    for (const [key, value] of Object.entries(raw.headers)) headers.set(key, value as string);
  }
  return { type, url: raw.url.trim(), headers: Object.fromEntries(headers) };
}

/**
 * One server per tool prefix (`mcp__PREFIX__…`, `serverPrefix.ts`), so one name never stands for two servers:
 * not in the model's tools, not in an approval. The groups come in the order they win, the caller giving the
 * user's servers first, then each folder's: a repository can never take the name or the prefix of a server of
 * the user's (nor the allowances the user gave it). A later server whose prefix is taken is not used, and
 * reported.
 */
export function mergeMcpServers(groups: readonly (readonly McpServerEntry[])[]): {
  readonly servers: readonly McpServerEntry[];
  readonly problems: readonly string[];
} {
  const byPrefix = new Map<string, McpServerEntry>();
  const problems: string[] = [];
  for (const group of groups) {
    for (const entry of group) {
      const prefix = mcpServerPrefix(entry.name);
      const first = byPrefix.get(prefix);
      if (!first) {
        byPrefix.set(prefix, entry);
        continue;
      }
      const clash =
        first.name === entry.name
          ? `${first.source} has a server of the same name`
          : `its tools would be named mcp__${prefix}__…, as those of server "${first.name}" of ${first.source} are`;
      problems.push(`Server "${entry.name}" of ${entry.source} is not used: ${clash}. Rename one to use both.`);
    }
  }
  return { servers: [...byPrefix.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
}

// ---------------------------------------------------------------------------------------------------------
// Variables

export interface McpVariableContext {
  /** `${workspaceFolder}`: the server's folder (a user server: the window's first folder). */
  readonly workspaceFolder: string | undefined;
  /** `${env:NAME}`: the editor's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The inputs `${input:id}` may name (the same file's, or the `cairn.mcp.inputs` setting for user servers). */
  readonly inputs: readonly McpInputDeclaration[];
  /**
   * Asked once the configuration is found usable, before any input is asked or file read: undefined to go
   * on, else why the server does not start (the user did not allow it). None: it may start.
   */
  readonly mayStart?: () => Promise<string | undefined>;
  /** The value of an input (stored or asked now); undefined: the user declined. */
  readonly askInput: (input: McpInputDeclaration) => Promise<string | undefined>;
  /** The text of an env file at an absolute path; rejects when it cannot be read. */
  readonly readEnvFile: (path: string) => Promise<string>;
}

/** A server ready to start, but for its identity, which the caller adds (`serverIdentity.ts`). */
export type McpResolvedServer = Omit<McpServerConfig, 'identity'>;

export type McpServerResolution =
  | { readonly kind: 'ready'; readonly config: McpResolvedServer }
  /** `problem`: the configuration is wrong (reported with the other problems); else the user declined the server or an input. */
  | { readonly kind: 'not_started'; readonly name: string; readonly reason: string; readonly problem: boolean };

const VARIABLE = /\$\{([^}]*)\}/g;

type Variable =
  { readonly kind: 'workspaceFolder' } | { readonly kind: 'env'; readonly name: string } | { readonly kind: 'input'; readonly id: string };

function variableOf(inner: string): Variable | undefined {
  if (inner === 'workspaceFolder') return { kind: 'workspaceFolder' };
  const env = /^env:([^:]+)$/.exec(inner);
  if (env) return { kind: 'env', name: env[1]! };
  const input = /^input:([^:]+)$/.exec(inner);
  if (input) return { kind: 'input', id: input[1]! };
  return undefined;
}

/** Every string of the entry that may hold variables. */
function stringsOf(transport: McpStdioEntry | McpHttpEntry): string[] {
  if (transport.type === 'stdio') {
    return [transport.command, ...transport.args, ...Object.values(transport.env), transport.envFile ?? '', transport.cwd ?? ''];
  }
  return [transport.url, ...Object.values(transport.headers)];
}

/**
 * The server ready to start: its variables substituted (each string once; a substituted value is never
 * read for variables again), its env file read under its `env`. Inputs are asked only when nothing else
 * is wrong, so the user is never asked for a server that would not start anyway.
 */
export async function resolveMcpServer(entry: McpServerEntry, context: McpVariableContext): Promise<McpServerResolution> {
  const notStarted = (reason: string, problem = true): McpServerResolution => ({ kind: 'not_started', name: entry.name, reason, problem });
  const prefix = `${entry.source}: server "${entry.name}"`;

  // 1. Every variable known and usable, before anything is asked or read.
  const wrong = new Set<string>();
  const wantedInputs: McpInputDeclaration[] = [];
  for (const text of stringsOf(entry.transport)) {
    for (const match of text.matchAll(VARIABLE)) {
      const variable = variableOf(match[1]!);
      if (!variable) wrong.add(`uses ${match[0]}, which Cairn does not know (it knows \${workspaceFolder}, \${env:NAME} and \${input:id})`);
      else if (variable.kind === 'workspaceFolder' && context.workspaceFolder === undefined)
        wrong.add('uses ${workspaceFolder}, but no folder is open');
      // Cairn's own credentials (the list the command runner withholds) never reach a server, whoever wrote the configuration.
      else if (variable.kind === 'env' && isCairnCredentialVariable(variable.name))
        wrong.add(`uses ${match[0]}: Cairn never passes its own credentials (ANTHROPIC_*, CLAUDE_CODE_OAUTH_TOKEN…) to a server`);
      else if (variable.kind === 'input') {
        const declared = context.inputs.find((input) => input.id === variable.id);
        if (!declared)
          wrong.add(
            `uses ${match[0]}, which is not declared; add { "type": "promptString", "id": "${variable.id}", "description": "…", "password": true } to ${entry.inputsSource}`,
          );
        else if (!wantedInputs.includes(declared)) wantedInputs.push(declared);
      }
    }
  }
  if (wrong.size > 0) return notStarted(`${prefix} ${[...wrong].join('; ')}. It is not started.`);
  const refused = await context.mayStart?.();
  if (refused !== undefined) return notStarted(refused, false);

  // 2. The inputs, in the order they appear.
  const inputValues = new Map<string, string>();
  for (const input of wantedInputs) {
    const value = await context.askInput(input);
    if (value === undefined) {
      return notStarted(
        `Server "${entry.name}" is not started: no value was given for \${input:${input.id}} (${input.description}). Cairn asks again after "Cairn: Clear MCP Inputs" or a reload.`,
        false,
      );
    }
    inputValues.set(input.id, value);
  }
  const substitute = (text: string): string =>
    text.replace(VARIABLE, (_whole, inner: string) => {
      const variable = variableOf(inner)!;
      if (variable.kind === 'workspaceFolder') return context.workspaceFolder!;
      if (variable.kind === 'env') return context.env[variable.name] ?? '';
      return inputValues.get(variable.id)!;
    });
  const absolute = (path: string): string | undefined =>
    isAbsolute(path) ? path : context.workspaceFolder !== undefined ? join(context.workspaceFolder, path) : undefined;

  const transport = entry.transport;
  if (transport.type !== 'stdio') {
    const url = substitute(transport.url);
    if (!isHttpUrl(url)) {
      // The URL as substituted is not quoted: it may carry an input or a token.
      return notStarted(`${prefix} has a "url" that is not an http(s) address once its variables are filled in. It is not started.`);
    }
    const headers = Object.fromEntries(Object.entries(transport.headers).map(([key, value]) => [key, substitute(value)]));
    return { kind: 'ready', config: { name: entry.name, scope: entry.scope, transport: { type: transport.type, url, headers } } };
  }

  const env = new Map<string, string>();
  if (transport.envFile !== undefined) {
    // Messages name the path as written: substituted, it could hold an input's value.
    const path = absolute(substitute(transport.envFile));
    if (path === undefined)
      return notStarted(`${prefix} has a relative "envFile" and no folder is open; write an absolute path. It is not started.`);
    let text: string;
    try {
      text = await context.readEnvFile(path);
    } catch {
      return notStarted(
        `${prefix}: its "envFile" (${transport.envFile}) cannot be read. Create it or remove "envFile". It is not started.`,
      );
    }
    const parsed = parseEnvFile(text);
    if (parsed.problems.length > 0) {
      return notStarted(`${prefix}: its "envFile" (${transport.envFile}): ${parsed.problems.join(' ')} It is not started.`);
    }
    for (const [key, value] of Object.entries(parsed.values)) env.set(key, value);
  }
  for (const [key, value] of Object.entries(transport.env)) env.set(key, substitute(value));
  // A workspace server runs in its folder, as in VS Code. A user server runs where the editor does unless it
  // says otherwise: a folder's own node_modules/.bin or .npmrc must not decide what a user's `npx` runs.
  const cwd =
    transport.cwd !== undefined ? absolute(substitute(transport.cwd)) : entry.scope === 'workspace' ? context.workspaceFolder : undefined;
  if (transport.cwd !== undefined && cwd === undefined)
    return notStarted(`${prefix} has a relative "cwd" and no folder is open; write an absolute path. It is not started.`);
  return {
    kind: 'ready',
    config: {
      name: entry.name,
      scope: entry.scope,
      transport: {
        type: 'stdio',
        command: substitute(transport.command),
        args: transport.args.map(substitute),
        env: Object.fromEntries(env),
        ...(cwd !== undefined ? { cwd } : {}),
      },
    },
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
