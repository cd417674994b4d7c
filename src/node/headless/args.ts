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
}

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
  --prompt TEXT     one task for a real model (ANTHROPIC_API_KEY, or --base-url for a compatible server);
                    edits and commands are approved automatically, so point it at a folder you can lose
  --base-url URL    the Messages API to talk to (default ANTHROPIC_BASE_URL or Anthropic's)
  --model ID        the model (default: the newest Sonnet the SDK names)
  --out DIR         where the journal and the request snapshots go (default a new folder under /tmp, printed at the end)
  --report          print a table of every request: tokens, cache read/write, decisions
  --quiet           print only the summary line`;

export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--report' || arg === '--quiet') {
      flags.add(arg);
      continue;
    }
    if (!['--workspace', '--scenario', '--prompt', '--base-url', '--out', '--model'].includes(arg)) {
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
  return {
    workspace,
    ...(scenario ? { scenario } : {}),
    ...(prompt ? { prompt } : {}),
    ...(values.has('--base-url') ? { baseUrl: values.get('--base-url')! } : {}),
    ...(values.has('--out') ? { out: values.get('--out')! } : {}),
    ...(values.has('--model') ? { model: values.get('--model')! } : {}),
    report: flags.has('--report'),
    quiet: flags.has('--quiet'),
  };
}
