import {
  CompactionSettingsError,
  DEFAULT_COMPACTION_SETTINGS,
  parseThreshold,
  type CompactionSettings,
  type CompactionThreshold,
} from '../../core/compaction/settings';
import { DEFAULT_HYGIENE, type CommandOutputShape, type EditAnswerShape, type HygieneConfig } from '../../core/config/hygiene';
import type { SpendingCaps } from '../../core/spending/spendingCap';
import type { SandboxSettings } from '../workspace/sandboxPolicy';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from '../../core/agent/permissionMode';

/** The headless runner's command line: `npm run agent -- --workspace DIR (--scenario FILE | --prompt TEXT) ...`. */

export interface HeadlessArgs {
  readonly workspace: string;
  readonly scenario?: string;
  readonly prompt?: string;
  readonly baseUrl?: string;
  readonly out?: string;
  readonly report: boolean;
  readonly model?: string;
  readonly quiet: boolean;
  /** `--hooks`: run the workspace's and the user's hooks (off by default: a scenario's settings file is not the user's say). */
  readonly hooks?: boolean;
  /** `--threshold`: when to compact automatically (a share or a token count, as `cairn.compaction.threshold`). */
  readonly threshold?: CompactionThreshold;
  /** `--fallback-model`: summaries run on this model when the main model's cache is cold. */
  readonly fallbackModel?: string;
  /** `--fallback-after-minutes`: how long the main model must be idle before the fallback is used. */
  readonly fallbackAfterMinutes?: number;
  /** `--command-output failures`: a long command output cut around its failures (as `cairn.commandOutput`). */
  readonly commandOutput?: CommandOutputShape;
  /** `--edit-answer lean`: an edit answers with where it landed, not the whole diff (as `cairn.editAnswer`). */
  readonly editAnswer?: EditAnswerShape;
  /** `--budget-turn` and `--budget-session`: the spending caps in US$, as `cairn.budget.*`. */
  readonly spendingCaps?: SpendingCaps;
  /** `--past-cap`: the answer when a request could pass a cap (default stop). */
  readonly pastCap?: PastCapAnswer;
  /** `--sandbox off` and `--sandbox-network`: as `cairn.sandbox` and `cairn.sandboxNetwork`. */
  readonly sandbox?: SandboxSettings;
  /** `--permission-mode`: as `cairn.permissionMode` (default ask). */
  readonly permissionMode?: PermissionMode;
}

/** What the headless runner answers past a spending cap: stop, continue once, or raise (to twice the cap). */
export type PastCapAnswer = 'stop' | 'once' | 'raise';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage: npm run agent -- --workspace DIR (--scenario FILE | --prompt TEXT) [options]

  --workspace DIR   the folder the agent works in (created if missing)
  --scenario FILE   play a scripted session: writes its workspace files into DIR, starts the local
                    Anthropic-compatible server on a free loopback port, auto-approves every tool
                    (past a sub-agent bound, e.g. more than 10 in one response, it answers stop)
  --prompt TEXT     one task for a real model (ANTHROPIC_API_KEY, or --base-url for a compatible server);
                    edits and commands are approved automatically, so point it at a folder you can lose
  --base-url URL    the Messages API to talk to (default ANTHROPIC_BASE_URL or Anthropic's)
  --model ID        the model (default: the newest Sonnet the SDK names)
  --out DIR         where the journal and the request snapshots go (default a new folder under /tmp, printed at the end)
  --report          print a table of every request: tokens, cache read/write, decisions
  --quiet           print only the summary line
  --threshold T     compact automatically past T: a share of the window (0.5, "50%") or a token count (150000);
                    default 0.8, as cairn.compaction.threshold
  --fallback-model ID
                    write summaries on this model when the main model's cache is cold (no request on it in
                    the last --fallback-after-minutes, default 5), as cairn.compaction.fallbackModel
  --command-output headTail|failures
                    how a command's output over the cap is cut, as cairn.commandOutput (default headTail)
  --edit-answer diff|lean
                    how an edit answers the model, as cairn.editAnswer (default diff)
  --budget-turn USD, --budget-session USD
                    spending caps, as cairn.budget.turn and cairn.budget.session (default none)
  --past-cap stop|once|raise
                    the answer when a request could pass a cap: stop the turn (default), let that request
                    go, or raise the cap to twice what it was
  --sandbox auto|off, --sandbox-network
                    how commands are confined, as cairn.sandbox (default auto: the workspace writable, the
                    rest read-only, credentials hidden, no network) and cairn.sandboxNetwork
  --permission-mode ask|plan|acceptEdits|auto
                    as cairn.permissionMode (default ask): plan refuses edits and commands; acceptEdits and
                    auto run edits (auto: sandboxed commands too) without asking; what still asks is approved
                    automatically, as every ask is in a headless run
  --hooks           run the hooks of .claude/settings.json, .cairn/settings.json and ~/.claude/settings.json
                    (off by default)`;

export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--report' || arg === '--quiet' || arg === '--sandbox-network' || arg === '--hooks') {
      flags.add(arg);
      continue;
    }
    if (
      ![
        '--workspace',
        '--scenario',
        '--prompt',
        '--base-url',
        '--out',
        '--model',
        '--threshold',
        '--fallback-model',
        '--fallback-after-minutes',
        '--command-output',
        '--edit-answer',
        '--budget-turn',
        '--budget-session',
        '--past-cap',
        '--sandbox',
        '--permission-mode',
      ].includes(arg)
    ) {
      throw new UsageError(`Unknown option "${arg}".\n\n${USAGE}`);
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`Option ${arg} needs a value.\n\n${USAGE}`);
    values.set(arg, value);
    i++;
  }
  const workspace = values.get('--workspace');
  if (!workspace) throw new UsageError(`--workspace DIR is required.\n\n${USAGE}`);
  const scenario = values.get('--scenario');
  const prompt = values.get('--prompt');
  if (Boolean(scenario) === Boolean(prompt)) throw new UsageError(`Give exactly one of --scenario FILE or --prompt TEXT.\n\n${USAGE}`);
  let threshold: CompactionThreshold | undefined;
  if (values.has('--threshold')) {
    try {
      threshold = parseThreshold(values.get('--threshold')!);
    } catch (error) {
      if (error instanceof CompactionSettingsError) throw new UsageError(`--threshold: ${error.message}`);
      throw error;
    }
  }
  let fallbackAfterMinutes: number | undefined;
  if (values.has('--fallback-after-minutes')) {
    fallbackAfterMinutes = Number(values.get('--fallback-after-minutes'));
    if (!Number.isFinite(fallbackAfterMinutes) || fallbackAfterMinutes < 0) {
      throw new UsageError(`--fallback-after-minutes needs a number of minutes ≥ 0, got "${values.get('--fallback-after-minutes')}".`);
    }
  }
  const commandOutput = values.get('--command-output');
  if (commandOutput !== undefined && commandOutput !== 'headTail' && commandOutput !== 'failures') {
    throw new UsageError(`--command-output must be headTail or failures, got "${commandOutput}".`);
  }
  const editAnswer = values.get('--edit-answer');
  if (editAnswer !== undefined && editAnswer !== 'diff' && editAnswer !== 'lean') {
    throw new UsageError(`--edit-answer must be diff or lean, got "${editAnswer}".`);
  }
  const dollars = (flag: string): number | undefined => {
    if (!values.has(flag)) return undefined;
    const value = Number(values.get(flag));
    if (!Number.isFinite(value) || value <= 0)
      throw new UsageError(`${flag} needs a number of US dollars above 0, got "${values.get(flag)}".`);
    return value;
  };
  const turn = dollars('--budget-turn');
  const session = dollars('--budget-session');
  const pastCap = values.get('--past-cap');
  if (pastCap !== undefined && pastCap !== 'stop' && pastCap !== 'once' && pastCap !== 'raise') {
    throw new UsageError(`--past-cap must be stop, once or raise, got "${pastCap}".`);
  }
  const sandbox = values.get('--sandbox');
  if (sandbox !== undefined && sandbox !== 'auto' && sandbox !== 'off')
    throw new UsageError(`--sandbox must be auto or off, got "${sandbox}".`);
  const permissionMode = values.get('--permission-mode');
  if (permissionMode !== undefined && !isPermissionMode(permissionMode))
    throw new UsageError(`--permission-mode must be ${PERMISSION_MODES.join(', ')}, got "${permissionMode}".`);
  return {
    workspace,
    ...(permissionMode !== undefined ? { permissionMode } : {}),
    ...(turn !== undefined || session !== undefined
      ? { spendingCaps: { ...(turn !== undefined ? { turn } : {}), ...(session !== undefined ? { session } : {}) } }
      : {}),
    ...(pastCap !== undefined ? { pastCap } : {}),
    ...(sandbox !== undefined || flags.has('--sandbox-network')
      ? { sandbox: { mode: sandbox === 'off' ? ('off' as const) : ('auto' as const), network: flags.has('--sandbox-network') } }
      : {}),
    ...(commandOutput === 'failures' ? { commandOutput: 'failures' as const } : {}),
    ...(editAnswer === 'lean' ? { editAnswer: 'lean' as const } : {}),
    ...(scenario ? { scenario } : {}),
    ...(prompt ? { prompt } : {}),
    ...(values.has('--base-url') ? { baseUrl: values.get('--base-url')! } : {}),
    ...(values.has('--out') ? { out: values.get('--out')! } : {}),
    ...(values.has('--model') ? { model: values.get('--model')! } : {}),
    report: flags.has('--report'),
    quiet: flags.has('--quiet'),
    ...(flags.has('--hooks') ? { hooks: true } : {}),
    ...(threshold ? { threshold } : {}),
    ...(values.has('--fallback-model') ? { fallbackModel: values.get('--fallback-model')! } : {}),
    ...(fallbackAfterMinutes !== undefined ? { fallbackAfterMinutes } : {}),
  };
}

/** The hygiene numbers: the spec's, with `--command-output` and `--edit-answer` over them. */
export function hygieneOf(args: HeadlessArgs): HygieneConfig {
  if (!args.commandOutput && !args.editAnswer) return DEFAULT_HYGIENE;
  return {
    ...DEFAULT_HYGIENE,
    ...(args.commandOutput ? { 'cap.command_output': args.commandOutput } : {}),
    ...(args.editAnswer ? { 'edit.answer': args.editAnswer } : {}),
  };
}

/** The built-in compaction settings with the command line's threshold and fallback model over them. */
export function compactionSettingsOf(args: HeadlessArgs): CompactionSettings {
  return {
    ...DEFAULT_COMPACTION_SETTINGS,
    ...(args.threshold ? { threshold: args.threshold } : {}),
    ...(args.fallbackModel ? { fallbackModel: args.fallbackModel } : {}),
    ...(args.fallbackAfterMinutes !== undefined ? { fallbackAfterMinutes: args.fallbackAfterMinutes } : {}),
  };
}
