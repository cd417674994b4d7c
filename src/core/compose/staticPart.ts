import type { TextBlock, ToolDefinition } from '../model/types';
import { fitToBudget, type SourceBudgets } from './budget';
import { withoutMarker } from '../model/canonicalJson';
import { utf8Bytes } from '../text/utf8Bytes';
import type { Decision } from './decisions';
import { ComposeError } from './errors';
import { renderProjectContext, type ProjectContextSource } from './projectContextSource';
import { renderRulesFile, type RulesSource } from './rules';
import type { SourceKind } from './snapshot';
import { packDecision, selectPacks, type Pack } from './packs';

/** What the snapshot says about one static source. */
export interface StaticSourceInfo {
  source: Extract<SourceKind, 'preamble' | 'rules' | 'project_context' | 'skills_catalog'>;
  label: string;
  /** Index of its block in `system`; null when it was left out (nothing fit its budget). */
  blockIndex: number | null;
  budgetBytes: number | null;
  fullBytes: number;
  truncated: boolean;
  variant: 'full' | 'compact';
}

/**
 * The cacheable head of every request of a generation: the system blocks and the sorted tools,
 * without markers. Built once per generation and copied into each request, so it is byte-stable.
 */
export interface StaticPart {
  system: TextBlock[];
  tools: ToolDefinition[];
  sources: StaticSourceInfo[];
  /** Rules text by path, as the system part holds it: the baseline for rules deltas. */
  rules: Map<string, string>;
  /** Budget cuts made while building, reported with the generation's first request. */
  decisions: Decision[];
  /** The skills catalog as the system part holds it ('' when none): the baseline for catalog deltas. */
  catalog: string;
}

/** The skills catalog for a static part: its pack and the tokens it may take (1% of the window). */
export interface CatalogInput {
  readonly pack: Pack;
  readonly budgetTokens: number;
}

/** Tools in name order (code-unit order, locale-independent), deep-copied, markers removed. */
export function sortedTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new ComposeError(`Two tool definitions are named "${tool.name}"; tool names must be unique.`);
    seen.add(tool.name);
  }
  return [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((tool) => withoutMarker(structuredClone(tool)));
}

export async function buildStaticPart(options: {
  preamble: string;
  tools: readonly ToolDefinition[];
  rules: RulesSource;
  projectContext: ProjectContextSource;
  budgets: SourceBudgets;
  catalog?: () => Promise<CatalogInput>;
}): Promise<StaticPart> {
  if (options.preamble.trim().length === 0) {
    throw new ComposeError('The preamble is empty. Build it with buildPreamble() from the files in src/prompts.');
  }
  const [rulesFiles, project, catalogInput] = await Promise.all([options.rules.load(), options.projectContext.load(), options.catalog?.()]);
  const system: TextBlock[] = [{ type: 'text', text: options.preamble }];
  const sources: StaticSourceInfo[] = [
    {
      source: 'preamble',
      label: 'preamble',
      blockIndex: 0,
      budgetBytes: null,
      fullBytes: utf8Bytes(options.preamble),
      truncated: false,
      variant: 'full',
    },
  ];
  const rules = new Map<string, string>();
  for (const file of rulesFiles) {
    rules.set(file.path, file.text);
    sources.push({
      source: 'rules',
      label: file.path,
      blockIndex: system.length,
      budgetBytes: null,
      fullBytes: utf8Bytes(file.text),
      truncated: false,
      variant: 'full',
    });
    system.push({ type: 'text', text: renderRulesFile(file) });
  }
  const decisions: Decision[] = [];
  const full = renderProjectContext(project, 'full');
  if (full.length > 0) {
    const compact = renderProjectContext(project, 'compact');
    const budget = options.budgets.projectContext;
    const fitted = fitToBudget(full, compact !== full ? compact : undefined, budget, 'project context');
    const blockIndex = fitted.text.length > 0 ? system.length : null;
    if (fitted.text.length > 0) system.push({ type: 'text', text: fitted.text });
    sources.push({
      source: 'project_context',
      label: 'project context',
      blockIndex,
      budgetBytes: budget,
      fullBytes: fitted.fullBytes,
      truncated: fitted.truncated,
      variant: fitted.variant,
    });
    if (fitted.truncated || fitted.variant === 'compact') {
      const how = fitted.truncated
        ? fitted.text.length > 0
          ? `cut to ${fitted.bytes} bytes (${fitted.variant} variant)`
          : 'left out'
        : `replaced by its compact variant (${fitted.bytes} bytes)`;
      decisions.push({
        kind: 'budget_cut',
        detail: `project context is ${fitted.fullBytes} bytes, over its ${budget}-byte budget: ${how}`,
        resultIds: [],
      });
    }
  }
  let catalog = '';
  if (catalogInput && catalogInput.pack.full.length > 0) {
    // A pack of the static part, chosen once per generation so the prefix stays byte-stable.
    const [choice] = selectPacks([catalogInput.pack], { tokens: catalogInput.budgetTokens });
    catalog = choice!.text;
    const blockIndex = catalog.length > 0 ? system.length : null;
    if (catalog.length > 0) system.push({ type: 'text', text: catalog });
    sources.push({
      source: 'skills_catalog',
      label: 'skills catalog',
      blockIndex,
      budgetBytes: null,
      fullBytes: utf8Bytes(catalogInput.pack.full),
      truncated: choice!.variant === 'skipped' || choice!.variant === 'truncated',
      variant: choice!.variant === 'compact' ? 'compact' : 'full',
    });
    decisions.push(packDecision(choice!, `system, ${catalogInput.budgetTokens}-token budget`));
  }
  return { system, tools: sortedTools(options.tools), sources, rules, decisions, catalog };
}

/**
 * The parts of a static part that came from files, as JSON: journalled with a session so a resumed
 * session sends the same prefix (the prompt cache may still hold it) and measures rules deltas
 * against what the model was actually given, not against the files as they are at resume.
 */
export interface StaticState {
  version: 1;
  system: TextBlock[];
  sources: StaticSourceInfo[];
  rules: Array<[string, string]>;
  /** The skills catalog sent (absent in states journalled before skills existed: none). */
  catalog?: string;
}

export function staticStateOf(part: StaticPart): StaticState {
  return {
    version: 1,
    system: structuredClone(part.system),
    sources: structuredClone(part.sources),
    rules: [...part.rules],
    ...(part.catalog ? { catalog: part.catalog } : {}),
  };
}

/** A static part from a journalled state and the current tools; a state that does not hold together is a `ComposeError`. */
export function restoreStaticPart(state: StaticState, tools: readonly ToolDefinition[]): StaticPart {
  const valid =
    state?.version === 1 &&
    Array.isArray(state.system) &&
    state.system.every((b) => b?.type === 'text' && typeof b.text === 'string') &&
    Array.isArray(state.sources) &&
    state.sources.every(
      (s) => s.blockIndex === null || (Number.isInteger(s.blockIndex) && s.blockIndex >= 0 && s.blockIndex < state.system.length),
    ) &&
    Array.isArray(state.rules) &&
    state.rules.every((r) => Array.isArray(r) && typeof r[0] === 'string' && typeof r[1] === 'string');
  if (!valid) {
    throw new ComposeError(
      'The journalled prompt prefix of this session is damaged; start a new generation (compact) or a new session to rebuild it.',
    );
  }
  return {
    system: state.system.map((block) => withoutMarker({ type: 'text' as const, text: block.text })),
    tools: sortedTools(tools),
    sources: structuredClone(state.sources),
    rules: new Map(state.rules),
    decisions: [],
    catalog: typeof state.catalog === 'string' ? state.catalog : '',
  };
}
