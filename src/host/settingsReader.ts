/**
 * Reads the `cairn.*` settings into the typed values core wants. Takes a plain `get(key)` so it runs (and
 * is tested) without VS Code; the host passes `workspace.getConfiguration('cairn').get`. A setting with a
 * wrong value never stops Cairn: the default is used and the problem is reported once per value, so the
 * user can fix it in Settings.
 */
import { DEFAULT_LOOP_SETTINGS, type AgentLoopSettings } from '../core/agent/agentLoop';
import { DEFAULT_PERMISSION_MODE, isPermissionMode, PERMISSION_MODES, type PermissionMode } from '../core/agent/permissionMode';
import {
  DEFAULT_CACHE_TIME,
  DEFAULT_COMPACTION_SETTINGS,
  parseThreshold,
  type CacheTimeSettings,
  type CompactionSettings,
} from '../core/compaction/settings';
import { DEFAULT_ELISION_SETTINGS, type ElisionSettings } from '../core/elision/costModel';
import type { SubagentSettings } from '../core/subagentTypes';
import type { ModelPrice, PriceTable } from '../core/pricing/prices';
import { DEFAULT_HYGIENE, type CommandOutputShape, type EditAnswerShape, type HygieneConfig } from '../core/config/hygiene';
import { defaultModel } from '../core/model/defaultModel';
import { BUDGET_SETTINGS, integerBudget, MAX_THRESHOLD_TOKENS } from './budgetSettings';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../node/workspace/sandboxPolicy';
import { spendingCapsOf, SPENDING_CAP_SETTINGS, type SpendingCaps } from './spendingCapSettings';
import { requestHeadersOf, thinkingSettingsOf } from './modelRequestSettings';
import { WEB_FETCH_APPROVAL, WEB_FETCH_USER_ONLY_SETTINGS, webFetchSettingsOf, type WebFetchHostSettings } from './webFetchSettings';

export type SettingGetter = (key: string) => unknown;

/**
 * Settings a workspace must never set: `baseUrl` decides where the key is sent, `approvals` lets commands
 * run without asking, the MCP servers start programs, and the budgets (`budgetSettings.ts`) bound what Cairn
 * may do or spend before it asks. package.json gives them the `application` scope (user settings only, and
 * kept in remote windows, where `machine`-scoped user values are dropped); the reader also takes only the user's
 * (or the default) value, so a repository's `.vscode/settings.json` has no say even if an editor let it.
 */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  'baseUrl',
  'approvals',
  'mcp.servers',
  'mcp.inputs',
  ...BUDGET_SETTINGS,
  // Turning the sandbox off or opening its network widens what a command may do (issue 32).
  'sandbox',
  'sandboxNetwork',
  // A mode that runs edits or commands without asking (issue 32 §1): a repository must not choose it.
  'permissionMode',
  // The spending caps, and the prices they are counted in: a workspace that lowered a model's price would
  // let a turn spend past the user's cap (issue 32).
  ...SPENDING_CAP_SETTINGS,
  'prices',
  // Keep-warm sends requests (and spends) while the user is away, with no one to ask (issue 31).
  'cache.keepWarm',
  // Extra headers go with the key to the server: a repository must not add its own (issue 33 item 4). Thinking and
  // effort make each answer dearer (within max_tokens): the user's to choose, like the budgets.
  'headers',
  'thinking',
  'effort',
  // Letting web_fetch reach this machine or its network (issue 33).
  ...WEB_FETCH_USER_ONLY_SETTINGS,
]);

/** What `userScopedGetter` needs of `vscode.WorkspaceConfiguration`. */
export interface ScopedConfiguration {
  get(key: string): unknown;
  inspect(key: string):
    | {
        readonly defaultValue?: unknown;
        readonly globalValue?: unknown;
        readonly workspaceValue?: unknown;
        readonly workspaceFolderValue?: unknown;
      }
    | undefined;
}

/** A getter over the `cairn` section that ignores workspace and folder values of `USER_ONLY_SETTINGS`. */
export function userScopedGetter(config: ScopedConfiguration): SettingGetter {
  return (key) => {
    if (!USER_ONLY_SETTINGS.has(key)) return config.get(key);
    const values = config.inspect(key);
    return values?.globalValue ?? values?.defaultValue;
  };
}

/**
 * What the user is told when a workspace sets a setting Cairn takes from the user only: one sentence per
 * setting, naming the value it ignored and where to set it instead (the host logs each once).
 */
export function ignoredWorkspaceValues(config: ScopedConfiguration): string[] {
  const told: string[] = [];
  for (const key of [...USER_ONLY_SETTINGS].sort()) {
    const values = config.inspect(key);
    const value = values?.workspaceFolderValue ?? values?.workspaceValue;
    if (value === undefined) continue;
    told.push(
      `This workspace's settings set cairn.${key} to ${shown(value)}; Cairn ignores it: it takes this setting only from your user settings, so a repository cannot raise what Cairn may do or spend. Set it in your user settings if you want it.`,
    );
  }
  return told;
}

/** A setting's value in a sentence, cut: a workspace's object may be large. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export interface CairnSettings {
  readonly loop: AgentLoopSettings;
  /** `cairn.baseUrl`, trimmed; undefined means ANTHROPIC_BASE_URL or the SDK's default. */
  readonly baseUrl: string | undefined;
  /** `cairn.headers`: extra headers on every request to the server (a gateway's), from the user's settings only. */
  readonly headers: Readonly<Record<string, string>>;
  readonly compaction: CompactionSettings;
  /** Tools the user allowed in settings (`"cairn.approvals": { "bash": "allow" }`). */
  readonly alwaysAllow: ReadonlySet<string>;
  /** Overrides over the built-in price table. */
  readonly prices: PriceTable;
  /** `cairn.subagents.*`: how deep children nest, how many run at once, each one's budget. */
  readonly subagents: SubagentSettings;
  /** The hygiene numbers: the spec's, with `cairn.commandOutput` as `cap.command_output` and `cairn.editAnswer` as `edit.answer`. */
  readonly hygiene: HygieneConfig;
  /** `cairn.sandbox` and `cairn.sandboxNetwork`: how the commands the model runs are confined. */
  readonly sandbox: SandboxSettings;
  /** `cairn.budget.turn` and `cairn.budget.session`, in US$ (undefined: no cap). */
  readonly spending: SpendingCaps;
  /** `cairn.permissionMode`: how much Cairn may do without asking (issue 32 §1). */
  readonly permissionMode: PermissionMode;
  /** `cairn.webFetch.*`: what web_fetch may reach, its bounds, and whether it is refused in an untrusted workspace. */
  readonly webFetch: WebFetchHostSettings;
  /** What was wrong with the settings as read (each a sentence naming the setting). */
  readonly problems: readonly string[];
}

/** Tool names the approvals setting may name: the tools that ask before they run (and MCP tools, below). */
export const APPROVABLE_TOOLS: readonly string[] = ['apply_patch', 'bash', 'edit', 'multiedit', 'web_fetch', 'write'];

/**
 * An MCP tool as offered to the model (`mcp__SERVER__TOOL`), or every tool of a server (`mcp__SERVER__*`).
 * Offered names hold only letters, digits, `_` and `-` (other characters of a server's or tool's name become
 * `_`); the server's part (`core/mcp/serverPrefix.ts`) never holds `__` nor starts or ends with `_`, so one
 * that does (`mcp__github__x__*`) could name no server: it is reported rather than silently never matching.
 */
const MCP_APPROVAL = /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__(?:[A-Za-z0-9_-]+|\*)$/;

function positiveInteger(get: SettingGetter, key: string, fallback: number, problems: string[], min = 1): number {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min) return value;
  problems.push(`cairn.${key} must be a whole number of at least ${min}; using ${fallback}.`);
  return fallback;
}

function optionalText(get: SettingGetter, key: string, problems: string[]): string | undefined {
  const value = get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    problems.push(`cairn.${key} must be text; it is ignored.`);
    return undefined;
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function baseUrlOf(get: SettingGetter, problems: string[]): string | undefined {
  const value = optionalText(get, 'baseUrl', problems);
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  problems.push(`cairn.baseUrl "${value}" is not an http(s) URL; using the default server.`);
  return undefined;
}

function approvalsOf(get: SettingGetter, problems: string[]): Set<string> {
  const value = get('approvals');
  const allowed = new Set<string>();
  if (value === undefined || value === null) return allowed;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('cairn.approvals must be an object such as { "bash": "allow", "mcp__github__*": "allow" }; every tool asks.');
    return allowed;
  }
  for (const [tool, mode] of Object.entries(value as Record<string, unknown>)) {
    if (tool.startsWith('mcp__') && !MCP_APPROVAL.test(tool)) {
      problems.push(
        `cairn.approvals names "${tool}"; an MCP tool is "mcp__SERVER__TOOL" or "mcp__SERVER__*" (every tool of the server), as the tools are named: letters, digits, _ and - only (write other characters as _), and SERVER with no __ and no _ at its start or end (server "github__x" is mcp__github_x__*).`,
      );
      continue;
    }
    if (!APPROVABLE_TOOLS.includes(tool) && !MCP_APPROVAL.test(tool) && !WEB_FETCH_APPROVAL.test(tool)) {
      problems.push(
        `cairn.approvals names "${tool}", which is not a tool that asks (${APPROVABLE_TOOLS.join(', ')}, web_fetch(domain:example.com), or an MCP tool: mcp__SERVER__TOOL, mcp__SERVER__*).`,
      );
      continue;
    }
    if (mode === 'allow') allowed.add(tool);
    else if (mode !== 'ask') problems.push(`cairn.approvals.${tool} must be "allow" or "ask"; it asks.`);
  }
  return allowed;
}

function priceOf(value: unknown): ModelPrice | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const numbers = ['input', 'output'].map((k) => record[k]);
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return undefined;
  const input = record.input as number;
  const cacheWrite = typeof record.cacheWrite === 'number' ? record.cacheWrite : input * 1.25;
  const cacheRead = typeof record.cacheRead === 'number' ? record.cacheRead : input * 0.1;
  return { input, output: record.output as number, cacheWrite, cacheRead };
}

function pricesOf(get: SettingGetter, problems: string[]): PriceTable {
  const value = get('prices');
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('cairn.prices must be an object of model id prefix → { "input": n, "output": n } in US$ per million tokens.');
    return {};
  }
  const table: Record<string, ModelPrice> = {};
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const price = priceOf(entry);
    if (price) table[model] = price;
    else problems.push(`cairn.prices["${model}"] needs "input" and "output" (US$ per million tokens); it is ignored.`);
  }
  return table;
}

function compactionOf(get: SettingGetter, problems: string[]): CompactionSettings {
  let threshold = DEFAULT_COMPACTION_SETTINGS.threshold;
  const raw = get('compaction.threshold');
  if (raw !== undefined && raw !== null && raw !== '') {
    try {
      threshold = parseThreshold(raw);
      if (threshold.kind === 'tokens' && threshold.value > MAX_THRESHOLD_TOKENS) {
        problems.push(
          `cairn.compaction.threshold ${threshold.value} is more than ${MAX_THRESHOLD_TOKENS} tokens, larger than any model's window; using 80%. For a large window give a share such as 0.9.`,
        );
        threshold = DEFAULT_COMPACTION_SETTINGS.threshold;
      }
    } catch (error) {
      problems.push(`${error instanceof Error ? error.message : String(error)} Using 80%.`);
    }
  }
  const fallbackModel = optionalText(get, 'compaction.fallbackModel', problems);
  const fallbackAfterMinutes = positiveInteger(
    get,
    'compaction.fallbackAfterMinutes',
    DEFAULT_COMPACTION_SETTINGS.fallbackAfterMinutes,
    problems,
    0,
  );
  return {
    ...DEFAULT_COMPACTION_SETTINGS,
    threshold,
    fallbackAfterMinutes,
    ...(fallbackModel ? { fallbackModel } : {}),
    elision: elisionOf(get, problems),
    cache: cacheTimeOf(get, problems),
  };
}

/** `cairn.cache.ttl` ("auto" | "5m" | "1h") and `cairn.cache.keepWarm` ("off" | "auto"): what Cairn does with the cache's time (issue 31). */
function cacheTimeOf(get: SettingGetter, problems: string[]): CacheTimeSettings {
  const defaults = DEFAULT_CACHE_TIME;
  let ttl = defaults.ttl;
  const rawTtl = get('cache.ttl');
  if (rawTtl === 'auto' || rawTtl === '5m' || rawTtl === '1h') ttl = rawTtl;
  else if (rawTtl !== undefined && rawTtl !== null) problems.push(`cairn.cache.ttl must be "auto", "5m" or "1h"; using "${defaults.ttl}".`);
  let keepWarm = defaults.keepWarm;
  const rawKeepWarm = get('cache.keepWarm');
  if (rawKeepWarm === 'auto' || rawKeepWarm === 'off') keepWarm = rawKeepWarm;
  else if (rawKeepWarm !== undefined && rawKeepWarm !== null)
    problems.push(`cairn.cache.keepWarm must be "auto" or "off"; using "${defaults.keepWarm}".`);
  return { ttl, keepWarm };
}

/** `cairn.elision` ("auto" | "cold" | "off"), `cairn.elisionMargin` and `cairn.elisionMinTokens` (core/elision/README.md). */
function elisionOf(get: SettingGetter, problems: string[]): ElisionSettings {
  const defaults = DEFAULT_ELISION_SETTINGS;
  let mode = defaults.mode;
  const raw = get('elision');
  if (raw === 'auto' || raw === 'cold' || raw === 'off') mode = raw;
  else if (raw !== undefined && raw !== null) problems.push(`cairn.elision must be "auto", "cold" or "off"; using "${defaults.mode}".`);
  let margin = defaults.margin;
  const rawMargin = get('elisionMargin');
  if (typeof rawMargin === 'number' && Number.isFinite(rawMargin) && rawMargin >= 1) margin = rawMargin;
  else if (rawMargin !== undefined && rawMargin !== null)
    problems.push(`cairn.elisionMargin must be a number of at least 1; using ${margin}.`);
  const minTokens = positiveInteger(get, 'elisionMinTokens', defaults.minTokens, problems, 0);
  return { ...defaults, mode, margin, minTokens };
}

/** Every `cairn.*` setting, typed, with defaults for what is unset or wrong. */
export function readCairnSettings(get: SettingGetter): CairnSettings {
  const problems: string[] = [];
  const model = optionalText(get, 'model', problems) ?? defaultModel();
  const loop: AgentLoopSettings = {
    ...DEFAULT_LOOP_SETTINGS,
    model,
    maxTurns: integerBudget(get('maxTurns'), 'maxTurns', problems),
    maxTokens: integerBudget(get('maxTokens'), 'maxTokens', problems),
    ...thinkingSettingsOf(get, problems),
  };
  return {
    loop,
    baseUrl: baseUrlOf(get, problems),
    headers: requestHeadersOf(get('headers'), problems),
    compaction: compactionOf(get, problems),
    alwaysAllow: approvalsOf(get, problems),
    prices: pricesOf(get, problems),
    subagents: subagentsOf(get, problems),
    hygiene: hygieneOf(get, problems),
    sandbox: sandboxOf(get, problems),
    spending: spendingCapsOf(get, problems),
    permissionMode: permissionModeOf(get, problems),
    webFetch: webFetchSettingsOf(get, problems),
    problems,
  };
}

/** `cairn.permissionMode`; anything else asks, as the default does. */
function permissionModeOf(get: SettingGetter, problems: string[]): PermissionMode {
  const raw = get('permissionMode');
  if (isPermissionMode(raw)) return raw;
  if (raw !== undefined && raw !== null)
    problems.push(`cairn.permissionMode must be one of ${PERMISSION_MODES.join(', ')}; using "${DEFAULT_PERMISSION_MODE}".`);
  return DEFAULT_PERMISSION_MODE;
}

/** `cairn.sandbox` ("auto" | "off") and `cairn.sandboxNetwork` (a boolean); anything else keeps the sandbox closed. */
function sandboxOf(get: SettingGetter, problems: string[]): SandboxSettings {
  const raw = get('sandbox');
  let mode = DEFAULT_SANDBOX_SETTINGS.mode;
  if (raw === 'auto' || raw === 'off') mode = raw;
  else if (raw !== undefined && raw !== null) problems.push('cairn.sandbox must be "auto" or "off"; using "auto" (commands confined).');
  const rawNetwork = get('sandboxNetwork');
  let network = DEFAULT_SANDBOX_SETTINGS.network;
  if (typeof rawNetwork === 'boolean') network = rawNetwork;
  else if (rawNetwork !== undefined && rawNetwork !== null)
    problems.push('cairn.sandboxNetwork must be true or false; using false (no network).');
  return { mode, network };
}

/**
 * The hygiene numbers with Cairn's two shapes: `cairn.commandOutput`, "headTail" (spec 3.0.0's cap, the default) or
 * "failures" (ledger/outputShape/: the output shaped around what its runner or compiler reports); and
 * `cairn.editAnswer`, "diff" (spec 3.0.0 §5, the default) or "lean" (ledger/leanEditAnswer.ts).
 */
function hygieneOf(get: SettingGetter, problems: string[]): HygieneConfig {
  const output = get('commandOutput');
  const commandOutput: CommandOutputShape = output === 'failures' ? 'failures' : 'head-tail';
  if (output !== undefined && output !== null && output !== 'headTail' && output !== 'failures')
    problems.push('cairn.commandOutput must be "headTail" or "failures"; using "headTail".');
  const edit = get('editAnswer');
  const editAnswer: EditAnswerShape = edit === 'lean' ? 'lean' : 'diff';
  if (edit !== undefined && edit !== null && edit !== 'diff' && edit !== 'lean')
    problems.push('cairn.editAnswer must be "diff" or "lean"; using "diff".');
  if (commandOutput === DEFAULT_HYGIENE['cap.command_output'] && editAnswer === DEFAULT_HYGIENE['edit.answer']) return DEFAULT_HYGIENE;
  return { ...DEFAULT_HYGIENE, 'cap.command_output': commandOutput, 'edit.answer': editAnswer };
}

/** `cairn.subagents.*`, each held to its range (`budgetSettings.ts`). */
function subagentsOf(get: SettingGetter, problems: string[]): SubagentSettings {
  const read = (key: keyof SubagentSettings): number => integerBudget(get(`subagents.${key}`), `subagents.${key}`, problems);
  return {
    maxDepth: read('maxDepth'),
    parallel: read('parallel'),
    maxTurns: read('maxTurns'),
    perResponse: read('perResponse'),
    perTurn: read('perTurn'),
    requestsPerTurn: read('requestsPerTurn'),
  };
}
