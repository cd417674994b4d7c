import { DEFAULT_PERMISSION_MODE, type PermissionMode } from '../../core/agent/permissionMode';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_LOOP_SETTINGS, type AgentLoopSettings } from '../../core/agent/agentLoop';
import { autoApprover } from '../../core/agent/approval';
import type { AgentEvent, DoneReason } from '../../core/agent/events';
import { resumeSession, startSession, type AssembledSession, type SessionPorts } from '../../core/session/node/sessionAssembly';
import { FileSkillSource } from '../fileSkillSource';
import { FileCommandSource } from '../fileCommandSource';
import { resolveSlash } from '../../core/commands/slashInvocation';
import type { CommandSource } from '../../core/commands/ports';
import { CommandHookRunner } from '../../core/hooks/node/commandHookRunner';
import { DEFAULT_HOOK_TIMEOUT_SECONDS } from '../../core/hooks/sessionHooks';
import { TurnHooks } from '../../core/hooks/turnHooks';
import { readHookFiles } from '../fileHookSource';
import type { CompactionSettings } from '../../core/compaction/settings';
import { FileRulesSource } from '../fileRulesSource';
import { ChildRuns, type ChildRun } from './childRuns';
import { MoveRefusedError, playHistoryMove } from './historyMoves';
import type { RequestSnapshot } from '../../core/compose/snapshot';
import type { HygieneConfig } from '../../core/config/hygiene';
import { AnthropicModelClient } from '../../core/model/anthropicClient';
import { defaultModel } from '../../core/model/defaultModel';
import type { AgentHooks } from '../localServer/agentHooks';
import { startLocalServer, type LocalServer } from '../localServer/server';
import { applyFsOperation, describeFsOperation } from '../scenario/fsOperation';
import { ScenarioPlayer } from '../scenario/player';
import { writeWorkspaceFiles } from '../scenario/scenario';
import type { Scenario } from '../scenario/types';
import { NodeProjectContext } from '../nodeProjectContext';
import { NodeFileWatcher } from '../workspace/nodeFileWatcher';
import { commandEnvironment, environmentSecrets } from '../workspace/commandRunner';
import { NodeWorkspace } from '../workspace/nodeWorkspace';
import type { SandboxSettings } from '../workspace/sandboxPolicy';
import type { PriceTable } from '../../core/pricing/prices';
import type { SpendingApprover, SpendingCaps } from '../../core/spending/spendingCap';
import type { PastCapAnswer } from './args';
import { prepareImage } from '../images/preparedImage';

/** Where the prompt files live when Cairn runs from its repository (tests, benchmarks, the CLI). */
export const REPO_PROMPTS_DIR = resolve(__dirname, '..', '..', 'prompts');

export interface HeadlessOptions {
  readonly workspaceDir: string;
  readonly scenario?: Scenario;
  readonly prompt?: string;
  readonly baseUrl?: string;
  /** Journal, request log and snapshots; default a new folder under the system's temp folder. */
  readonly outDir?: string;
  readonly model?: string;
  readonly apiKey?: string;
  readonly hygiene?: HygieneConfig;
  readonly idSeed?: number;
  readonly loop?: Partial<Omit<AgentLoopSettings, 'model'>>;
  /** Each event as it happens (the CLI prints the transcript from these). */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Script mismatches and skipped turns. */
  readonly onNotice?: (message: string) => void;
  /** Home folder for `~/.cairn/AGENTS.md`; tests point it at a temp dir. */
  readonly homeDir?: string;
  /** Benchmarks only: a peer's strategy in place of Cairn's (passed to the session as is). */
  readonly strategy?: Pick<SessionPorts, 'project' | 'wrapTools'>;
  /** Compaction settings; default the built-in ones. */
  readonly compaction?: CompactionSettings;
  /** Benchmarks only: hooks the local server answers with (retrievals served before a step's needs). */
  readonly serverHooks?: AgentHooks;
  /** Spending caps, and the answer past one (`--past-cap`; default stop, as with no one to ask). */
  readonly spending?: { readonly caps: SpendingCaps; readonly pastCap?: PastCapAnswer; readonly approver?: SpendingApprover };
  /** How commands are confined (`--sandbox`, `--sandbox-network`); default: confined, no network. */
  readonly sandbox?: SandboxSettings;
  /** `--permission-mode` (default ask); a function for a run that switches modes between its turns (tests). */
  readonly permissionMode?: PermissionMode | (() => PermissionMode);
  /** Prices over the built-in table (as `cairn.prices`). */
  readonly prices?: PriceTable;
  /**
   * Run the hooks of the workspace's and the user's settings files (`--hooks`): off unless asked, since a
   * scenario's workspace may carry a `.claude/settings.json` nobody meant to run. `timeoutSeconds`: the
   * bound of a hook without its own (default 60, as `cairn.hooks.timeoutSeconds`).
   */
  readonly hooks?: { readonly timeoutSeconds?: number };
}

export interface HeadlessResult {
  readonly sessionId: string;
  readonly sessionDir: string;
  readonly outDir: string;
  /** The session's own agent's requests (the parent's). */
  readonly snapshots: readonly RequestSnapshot[];
  /** Every child agent the run started, with its own requests' snapshots and outcome. */
  readonly children: readonly ChildRun[];
  readonly doneReasons: readonly DoneReason[];
  /**
   * Runs that ended in an error a `retry` turn then asked again for (the retry is a run of its own in
   * `doneReasons`): the script meant them to fail, so the CLI's exit code does not count them.
   */
  readonly retriedErrors: number;
  readonly events: readonly AgentEvent[];
  /** The local server's log of every request body, when a scenario ran. */
  readonly server?: Pick<LocalServer, 'requests' | 'notices'>;
}

function modeOf(mode: HeadlessOptions['permissionMode']): PermissionMode {
  return typeof mode === 'function' ? mode() : (mode ?? DEFAULT_PERMISSION_MODE);
}

export class HeadlessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeadlessError';
  }
}

/**
 * Runs the real loop, tools, ledger, composer and journal outside VS Code. With a scenario it writes the
 * scenario's files, serves the script from the local Anthropic-compatible server on a loopback port, and
 * auto-approves; with a prompt it talks to the configured Messages API.
 */
export async function runHeadless(options: HeadlessOptions): Promise<HeadlessResult> {
  const workspaceDir = resolve(options.workspaceDir);
  // Outside the workspace by default, so the agent's own searches never find its journal.
  const outDir = resolve(options.outDir ?? (await mkdtemp(join(tmpdir(), 'cairn-run-'))));
  await mkdir(workspaceDir, { recursive: true });
  await mkdir(outDir, { recursive: true });
  const { scenario } = options;
  if (!scenario && !options.prompt) throw new HeadlessError('Give a scenario or a prompt.');
  if (scenario) await writeWorkspaceFiles(scenario.workspace, workspaceDir);

  const player = scenario
    ? new ScenarioPlayer(scenario, { driver: 'runner', ...(options.onNotice ? { onNotice: options.onNotice } : {}) })
    : undefined;
  const server =
    scenario && player
      ? await startLocalServer({
          scenario,
          player,
          logFile: join(outDir, 'requests.jsonl'),
          onFs: (turn) => applyFsOperation(turn.operation, workspaceDir),
          ...(options.serverHooks ? { agent: options.serverHooks } : {}),
        })
      : undefined;

  const baseUrl = server?.url ?? options.baseUrl ?? process.env.ANTHROPIC_BASE_URL;
  const apiKey = server ? 'local-scenario-key' : (options.apiKey ?? process.env.ANTHROPIC_API_KEY);
  const model = options.model ?? scenario?.model.id ?? defaultModel();
  const modelClient = new AnthropicModelClient({
    apiKey: async () => apiKey,
    ...(baseUrl ? { baseUrl } : {}),
  });
  const settings: AgentLoopSettings = { ...DEFAULT_LOOP_SETTINGS, ...options.loop, model };
  const sandbox = options.sandbox;
  const workspace = new NodeWorkspace(workspaceDir, sandbox ? { sandbox: { settings: () => sandbox } } : {});
  const watcher = new NodeFileWatcher(workspaceDir);
  const events: AgentEvent[] = [];
  const snapshots: RequestSnapshot[] = [];
  const doneReasons: DoneReason[] = [];
  const retried = { errors: 0 };
  const children = new ChildRuns();
  let assembled: AssembledSession | undefined;
  try {
    const homeDir = options.homeDir ?? homedir();
    const ports: SessionPorts = {
      workspace,
      watcher,
      projectContext: new NodeProjectContext({ folders: [workspaceDir] }),
      rules: new FileRulesSource({ homeDir, roots: [workspaceDir] }),
      // A headless run is the user's own command on their own folder: its skills load (the editor asks workspace trust).
      skills: new FileSkillSource({ homeDir, roots: [workspaceDir], trusted: () => true }),
      model: modelClient,
      approver: autoApprover,
      approvals: () => ({ alwaysAllow: new Set(), workspaceTrusted: true, mode: modeOf(options.permissionMode) }),
      settings: () => settings,
      sessionsDir: join(outDir, 'sessions'),
      promptsDir: REPO_PROMPTS_DIR,
      secrets: () => environmentSecrets(process.env),
      // `read` of an image file, and a scenario turn's `images`, send the image (issue 33).
      images: prepareImage,
      // The headless runner works where it is told to: commands' changes in a git workspace are checkpointed.
      checkpointGit: { env: commandEnvironment(process.env), trusted: () => true },
      ...(options.hygiene ? { hygiene: options.hygiene } : {}),
      ...(options.idSeed !== undefined ? { idSeed: options.idSeed } : {}),
      ...(options.strategy?.project ? { project: options.strategy.project } : {}),
      ...(options.strategy?.wrapTools ? { wrapTools: options.strategy.wrapTools } : {}),
      ...(options.compaction ? { compaction: () => options.compaction! } : {}),
      ...(options.prices ? { prices: options.prices } : {}),
      ...(options.spending
        ? {
            spendingCaps: () => options.spending!.caps,
            spendingApprover: options.spending.approver ?? flagAnswer(options.spending.pastCap ?? 'stop'),
          }
        : {}),
      // The script's time (real time plus its user turns' idles), the clock the local server expires its cache
      // by: Cairn judges a cold cache, and stamps its journal, by the time the server keeps.
      ...(player ? { clock: player.clock } : {}),
      ...(options.hooks
        ? {
            hooks: {
              provider: {
                hooks: async () => (await readHookFiles({ roots: [workspaceDir], homeDir, trusted: true })).flatMap((f) => f.hooks),
              },
              runner: new CommandHookRunner(commandEnvironment(process.env)),
              timeoutSeconds: () => options.hooks?.timeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
            },
          }
        : {}),
    };
    // The session's events, and the runner's own lines (a history move's outcome), in the order they happen.
    const emit = (event: AgentEvent): void => {
      events.push(event);
      if (event.type === 'request_finished') snapshots.push(event.snapshot);
      children.observe(event);
      options.onEvent?.(event);
    };
    const watch = (opened: AssembledSession): AssembledSession => {
      opened.session.onEvent(emit);
      return opened;
    };
    assembled = watch(await startSession(ports));
    const turnHooks = (opened: AssembledSession): TurnHooks =>
      new TurnHooks(opened.hooks, (message) => emit({ type: 'notice', level: 'warning', kind: 'hook', message }));
    await turnHooks(assembled).sessionStarted('startup');
    // The user's own slash commands, as the chat has them (`.cairn/commands`, `.claude/commands`, `~/.cairn/commands`).
    const commands = new FileCommandSource({ homeDir, roots: [workspaceDir], trusted: () => true });

    if (player) {
      // A resume turn closes the session and opens it again from its journal, as reopening it in the editor does.
      const reopen = async (): Promise<AssembledSession> => {
        const id = assembled!.journal.sessionId;
        await assembled!.dispose();
        assembled = undefined;
        assembled = watch(await resumeSession(ports, id));
        return assembled;
      };
      await playScenario(player, {
        current: () => assembled!,
        reopen,
        workspaceDir,
        doneReasons,
        retried,
        emit,
        onNotice: options.onNotice,
        commands,
        turnHooks,
      });
    } else {
      await sendAsTheChatDoes(assembled, options.prompt!, [], { commands, hooks: turnHooks(assembled) }, emit, doneReasons);
    }
    await writeFile(join(outDir, 'snapshots.json'), `${JSON.stringify(snapshots, null, 2)}\n`);
    if (children.runs.length > 0) await writeFile(join(outDir, 'children.json'), `${JSON.stringify(children.runs, null, 2)}\n`);
    return {
      sessionId: assembled.journal.sessionId,
      sessionDir: assembled.journal.sessionDir,
      outDir,
      snapshots,
      children: children.runs,
      doneReasons,
      retriedErrors: retried.errors,
      events,
      ...(server ? { server: { requests: server.requests, notices: server.notices } } : {}),
    };
  } finally {
    await assembled?.dispose();
    watcher.dispose();
    await server?.close();
  }
}

interface PlayContext {
  readonly current: () => AssembledSession;
  readonly reopen: () => Promise<AssembledSession>;
  readonly workspaceDir: string;
  readonly doneReasons: DoneReason[];
  /** Counts the failed runs a `retry` turn answered. */
  readonly retried: { errors: number };
  /** A line of the runner's own into the transcript, in order with the session's events. */
  readonly emit: (event: AgentEvent) => void;
  readonly onNotice: ((message: string) => void) | undefined;
  readonly commands: CommandSource;
  readonly turnHooks: (opened: AssembledSession) => TurnHooks;
}

/**
 * A user turn as the chat sends it: `/name args` runs the user's custom command (its expansion is the
 * message) or turns a skill on (the rest is the message); the transcript says which, as the chat shows it.
 */
async function sendAsTheChatDoes(
  assembled: AssembledSession,
  text: string,
  /** The turn's images: workspace files the user attaches, read through the ledger like the model's `read`. */
  images: readonly { readonly path: string }[],
  with_: { readonly commands: CommandSource; readonly hooks: TurnHooks },
  emit: (event: AgentEvent) => void,
  doneReasons: DoneReason[],
): Promise<void> {
  const send = async (message: string): Promise<void> => {
    const verdict = await with_.hooks.beforePrompt(message);
    if (!verdict.send) {
      emit({ type: 'error', kind: 'hook', message: verdict.reason });
      return;
    }
    doneReasons.push(await assembled.session.send(verdict.text, images));
    const more = await with_.hooks.turnEnded(false);
    if (more === undefined) return;
    emit({ type: 'notice', level: 'info', kind: 'hook', message: more });
    doneReasons.push(await assembled.session.send(more));
    await with_.hooks.turnEnded(true);
  };
  const outcome = await resolveSlash(text, { commands: with_.commands, skills: assembled.skills });
  switch (outcome.kind) {
    case 'plain':
      await send(text);
      return;
    case 'command':
      emit({
        type: 'notice',
        level: 'info',
        kind: 'slash_command',
        message: `/${outcome.command.name}${outcome.args ? ` ${outcome.args}` : ''} expanded from ${outcome.command.file}`,
      });
      await send(outcome.text);
      return;
    case 'skill':
      emit({ type: 'notice', level: 'info', kind: 'skills', message: `/${outcome.name}: the skill ${outcome.name} is on` });
      if (outcome.text !== undefined) await send(outcome.text);
      return;
    case 'refused':
      emit({ type: 'error', kind: 'slash_command', message: outcome.message });
      return;
  }
}

/**
 * Feeds the script's user turns to the loop, applies fs turns while it is idle, and runs compact turns and the
 * history moves. A turn that cannot be played (a compaction not applied, a move refused) is said and skipped:
 * the script goes on, as the user would go on in the editor.
 */
async function playScenario(player: ScenarioPlayer, context: PlayContext): Promise<void> {
  const { current, reopen, workspaceDir, doneReasons, retried, emit, onNotice, commands, turnHooks } = context;
  let hooks = turnHooks(current());
  while (!player.done) {
    // While the user is away before a message, the session's keep-warm requests go out at their time.
    const next = player.peek();
    const away = next?.kind === 'user' ? (next.idleSeconds ?? 0) : 0;
    const passed =
      away > 0
        ? await current().session.passIdle(
            away,
            () => player.clock.now(),
            (s) => player.clock.advance(s),
          )
        : 0;
    const turn = player.advance(passed)!;
    const assembled = current();
    switch (turn.kind) {
      case 'user':
        await sendAsTheChatDoes(
          assembled,
          turn.text,
          (turn.images ?? []).map((path) => ({ path })),
          { commands, hooks },
          emit,
          doneReasons,
        );
        break;
      case 'fs':
        await applyFsOperation(turn.operation, workspaceDir);
        break;
      case 'compact': {
        // What "Cairn: Compact Context" does: a manual compaction with the user's instructions, applied at
        // once. The summary request that follows takes the script's next summary turn. A compaction that
        // cannot be done (a PreCompact hook's block too) says why in a notice (the transcript prints it); the script goes on.
        const outcome = await assembled.session.compact(
          { reason: 'manual', ...(turn.instructions?.trim() ? { instructions: turn.instructions } : {}) },
          new AbortController().signal,
        );
        if (!outcome.applied) onNotice?.(`turn ${turn.index}: the compaction was not applied: ${outcome.reason}`);
        break;
      }
      case 'skills': {
        // What the chat's skills list does: the changes go out with the next user message.
        for (const name of turn.disable) {
          const done = assembled.skills.disable(name);
          if (!done.ok) onNotice?.(`turn ${turn.index}: ${done.message}`);
        }
        for (const name of turn.enable) {
          const done = await assembled.skills.enable(name);
          if (!done.ok) onNotice?.(`turn ${turn.index}: ${done.message}`);
        }
        break;
      }
      case 'resume':
        hooks = turnHooks(await reopen());
        await hooks.sessionStarted('resume');
        break;
      case 'retry':
      case 'undo':
      case 'edit':
      case 'restore':
        try {
          const failed = doneReasons.at(-1) === 'error';
          const done = await playHistoryMove(turn, assembled, emit);
          if (turn.kind === 'retry' && failed) retried.errors++;
          if (done) doneReasons.push(done);
        } catch (error) {
          if (!(error instanceof MoveRefusedError)) throw error;
          // Said where the reader of the transcript looks, and as a notice: the script and the run disagree.
          const message = `turn ${turn.index} (${turn.kind}): ${error.message}`;
          emit({ type: 'error', kind: turn.kind, message });
          onNotice?.(message);
        }
        break;
      default:
        // An assistant, fault or summary turn the loop never asked for: the script and the run disagree.
        player.notice(`turn ${turn.index} (${turn.kind}) was not consumed by any request and was skipped`);
    }
  }
  for (const turn of player.unplayedChildTurns()) {
    player.notice(`turn ${turn.index} (${turn.kind} for ${turn.agent}) was not consumed by any request of ${turn.agent}`);
  }
}

export { describeFsOperation };

/** The headless runner's answer past a spending cap, the same every time (`--past-cap`). */
function flagAnswer(answer: PastCapAnswer): SpendingApprover {
  return {
    askPastCap: async (question) =>
      answer === 'once' ? { kind: 'once' } : answer === 'raise' ? { kind: 'raise', capUsd: question.capUsd * 2 } : { kind: 'stop' },
  };
}
