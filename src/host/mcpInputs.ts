/**
 * The values of MCP servers' `${input:id}` variables: asked once in an input box, kept in VS Code's
 * SecretStorage (the OS keychain) under a key naming the folder whose mcp.json declares the input (or the
 * user, for `cairn.mcp.inputs`), and reused from then on. A value is handed to the server's configuration
 * only: it is registered with the log's redaction as soon as it is known, and nothing here writes it
 * anywhere else. **Cairn: Clear MCP Inputs** forgets every stored value.
 */
import * as vscode from 'vscode';
import type { McpInputDeclaration } from '../core/mcp/config';

export const CLEAR_MCP_INPUTS_COMMAND = 'cairn.clearMcpInputs';

const KEY_PREFIX = 'cairn.mcp.input';
/**
 * The keys Cairn stored values under (SecretStorage cannot list its keys in the VS Code versions Cairn
 * supports), so Clear can forget them all. Keys name folders and input ids, never values.
 */
const INDEX_KEY = 'cairn.mcp.inputKeys';

/** Whose input: a folder's `.vscode/mcp.json`, or the user's `cairn.mcp.inputs` setting. */
export type McpInputOwner = { readonly kind: 'folder'; readonly uri: string; readonly name: string } | { readonly kind: 'user' };

export type McpInputStorage = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>;

export interface McpInputLog {
  info(line: string): void;
  /** A value that must never be written to the log. */
  hide(secret: string | undefined): void;
}

export function mcpInputKey(owner: McpInputOwner, id: string): string {
  return owner.kind === 'user' ? `${KEY_PREFIX}/user/${id}` : `${KEY_PREFIX}/${owner.uri}/${id}`;
}

export class McpInputs {
  /** Inputs the user dismissed in this window: not asked again until Clear or a reload. */
  private readonly declined = new Set<string>();
  /** One question per input at a time, however many servers use it. */
  private readonly asking = new Map<string, Promise<string | undefined>>();
  /** Every value read or given in this window: no tool result may show one (a server may echo it). */
  private readonly known = new Set<string>();

  constructor(
    private readonly storage: McpInputStorage,
    private readonly log: McpInputLog,
  ) {}

  /** The stored value, else the user's answer (stored); undefined when the user dismissed the box. */
  async value(owner: McpInputOwner, input: McpInputDeclaration): Promise<string | undefined> {
    const key = mcpInputKey(owner, input.id);
    const stored = await this.storage.get(key);
    if (stored !== undefined) {
      this.log.hide(stored);
      this.known.add(stored);
      return stored;
    }
    if (this.declined.has(key)) return undefined;
    const pending = this.asking.get(key);
    if (pending) return pending;
    const asked = this.ask(key, owner, input).finally(() => this.asking.delete(key));
    this.asking.set(key, asked);
    return asked;
  }

  /** The values known in this window, for the session's redactor (tool results never show them). */
  knownValues(): string[] {
    return [...this.known];
  }

  /** Forgets every stored value (and every dismissal), so each input is asked again. */
  async clear(): Promise<number> {
    const keys = await this.index();
    for (const key of keys) await this.storage.delete(key);
    await this.storage.delete(INDEX_KEY);
    this.declined.clear();
    return keys.length;
  }

  private async ask(key: string, owner: McpInputOwner, input: McpInputDeclaration): Promise<string | undefined> {
    const where = owner.kind === 'user' ? 'your cairn.mcp.inputs setting' : `.vscode/mcp.json of folder "${owner.name}"`;
    const value = await vscode.window.showInputBox({
      title: `Cairn: MCP input "${input.id}" (${where})`,
      prompt: `${input.description} — kept in VS Code's secret storage; "Cairn: Clear MCP Inputs" forgets it.`,
      password: input.password,
      ignoreFocusOut: true,
    });
    if (value === undefined) {
      this.declined.add(key);
      this.log.info(`MCP input "${input.id}" of ${where} was not given; the servers that use it are not started.`);
      return undefined;
    }
    this.log.hide(value);
    this.known.add(value);
    await this.storage.store(key, value);
    const keys = await this.index();
    if (!keys.includes(key)) await this.storage.store(INDEX_KEY, JSON.stringify([...keys, key]));
    this.log.info(`MCP input "${input.id}" of ${where} was saved in secret storage.`);
    return value;
  }

  private async index(): Promise<string[]> {
    const text = await this.storage.get(INDEX_KEY);
    if (text === undefined) return [];
    try {
      const keys: unknown = JSON.parse(text);
      return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string' && k.startsWith(`${KEY_PREFIX}/`)) : [];
    } catch {
      return [];
    }
  }
}

/** **Cairn: Clear MCP Inputs**. */
export function registerClearMcpInputsCommand(inputs: McpInputs, log: { error(line: string): void }): vscode.Disposable {
  return vscode.commands.registerCommand(CLEAR_MCP_INPUTS_COMMAND, async () => {
    try {
      const count = await inputs.clear();
      void vscode.window.showInformationMessage(
        count === 0
          ? 'Cairn: no MCP input values were stored.'
          : `Cairn: forgot ${count} MCP input value${count === 1 ? '' : 's'}. Each is asked again when its server next starts.`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Clear MCP Inputs failed: ${message}`);
      void vscode.window.showErrorMessage(`Cairn: ${message}`);
    }
  });
}
