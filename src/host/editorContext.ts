import * as vscode from 'vscode';
import type { MessageAttachment } from '../core/agent/ports';
import type { Decision } from '../core/compose/decisions';
import { packDecision, selectPacks, type Pack } from '../core/compose/packs';
import type { TextBlock } from '../core/model/types';
import { isSyntheticBlock, type ConversationEntry } from '../core/conversation/conversation';

/** Tokens the editor's context may take in one message (the active file's selection, open editors, problems). */
export const EDITOR_CONTEXT_BUDGET_TOKENS = 2_000;
const SELECTION_MAX_CHARS = 6_000;
const OPEN_EDITORS_MAX = 30;
const DIAGNOSTICS_MAX = 40;

/**
 * The editor's context attached to each user message as packs (issue 18, part 2), as users of Copilot
 * Chat expect: the active file and its selection (high), the diagnostics of the files the message names
 * (high), the open editors (low). Chosen under `EDITOR_CONTEXT_BUDGET_TOKENS` when the message is sent;
 * left out when it says the same as the last one in the surviving messages, so an unchanged editor costs
 * nothing and a rewind that dropped it sends it again.
 */
export class EditorContext implements MessageAttachment {
  constructor(
    private readonly enabled: () => boolean,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async blocksFor(userText: string, entries: readonly ConversationEntry[]): Promise<{ blocks: TextBlock[]; decisions: Decision[] }> {
    if (!this.enabled()) return { blocks: [], decisions: [] };
    try {
      return this.gather(userText, entries);
    } catch (error) {
      // The editor's context is extra: reading it must never stop the user's message from going out.
      this.log(
        `[Context] the editor's context could not be read (${error instanceof Error ? error.message : String(error)}); sent without it.`,
      );
      return { blocks: [], decisions: [] };
    }
  }

  private gather(userText: string, entries: readonly ConversationEntry[]): { blocks: TextBlock[]; decisions: Decision[] } {
    const packs = [activeFilePack(), diagnosticsPack(userText), openEditorsPack()];
    const choices = selectPacks(packs, { tokens: EDITOR_CONTEXT_BUDGET_TOKENS });
    const parts = choices.filter((c) => c.text.length > 0).map((c) => c.text);
    if (parts.length === 0) return { blocks: [], decisions: [] };
    const text = `${OPENING}${parts.join('\n\n')}\n</cairn-editor-context>`;
    if (text === lastEditorContext(entries)) return { blocks: [], decisions: [] };
    const decisions = choices.filter((c) => c.fullTokens > 0).map((c) => packDecision(c, 'editor context in the user message'));
    return { blocks: [{ type: 'text', text }], decisions };
  }
}

const OPENING = '<cairn-editor-context>\n';

/** The editor's context the model has: the last such block Cairn wrote in the surviving messages. */
function lastEditorContext(entries: readonly ConversationEntry[]): string | undefined {
  for (let e = entries.length - 1; e >= 0; e--) {
    const entry = entries[e]!;
    if (entry.message.role !== 'user') continue;
    const content = entry.message.content;
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b]!;
      if (block.type === 'text' && block.text.startsWith(OPENING) && isSyntheticBlock(entry, b)) return block.text;
    }
  }
  return undefined;
}

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(
    uri,
    vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1,
  );
}

function activeFilePack(): Pack {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return { label: 'active file', priority: 'high', full: '' };
  const path = relative(editor.document.uri);
  const { selection, document } = editor;
  const head = `Active file: ${path} (${document.languageId}, ${document.lineCount} lines, cursor at line ${selection.active.line + 1})`;
  if (selection.isEmpty) return { label: 'active file', priority: 'high', full: head };
  let selected = document.getText(selection);
  if (selected.length > SELECTION_MAX_CHARS)
    selected = `${selected.slice(0, SELECTION_MAX_CHARS)}\n[selection cut at ${SELECTION_MAX_CHARS} characters]`;
  const lines = `lines ${selection.start.line + 1}-${selection.end.line + 1}`;
  return {
    label: 'active file',
    priority: 'high',
    full: `${head}\nSelected, ${lines}:\n\`\`\`\n${selected}\n\`\`\``,
    compact: `${head}\nSelected: ${lines} (text left out to fit the budget; read the file for it)`,
  };
}

function openEditorsPack(): Pack {
  const paths: string[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText && input.uri.scheme === 'file') paths.push(relative(input.uri));
    }
  }
  const unique = [...new Set(paths)].sort();
  if (unique.length === 0) return { label: 'open editors', priority: 'low', full: '' };
  const shown = unique.slice(0, OPEN_EDITORS_MAX);
  const more = unique.length > shown.length ? ` (and ${unique.length - shown.length} more)` : '';
  return {
    label: 'open editors',
    priority: 'low',
    full: `Open editors: ${shown.join(', ')}${more}`,
    compact: `${unique.length} editors open.`,
  };
}

/** VS Code's Problems for the workspace files the message names (by path or by file name). */
function diagnosticsPack(userText: string): Pack {
  const lines: string[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (uri.scheme !== 'file' || diagnostics.length === 0) continue;
    const path = relative(uri);
    const name = path.split('/').pop() ?? path;
    if (!userText.includes(path) && !new RegExp(`(^|[^\\w.-])${escapeRegExp(name)}($|[^\\w-])`).test(userText)) continue;
    for (const d of diagnostics.slice(0, DIAGNOSTICS_MAX)) {
      lines.push(`${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity(d.severity)}: ${d.message.split('\n')[0]}`);
    }
  }
  if (lines.length === 0) return { label: 'problems', priority: 'high', full: '' };
  const errors = lines.filter((l) => l.includes(' error: '));
  return {
    label: 'problems',
    priority: 'high',
    full: `Problems (VS Code) in the files this message names:\n${lines.join('\n')}`,
    compact: `Problems (VS Code): ${lines.length}, of which ${errors.length} errors${errors[0] ? `; first: ${errors[0]}` : ''}`,
  };
}

function severity(value: vscode.DiagnosticSeverity): string {
  return value === vscode.DiagnosticSeverity.Error ? 'error' : value === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
