/**
 * Runs the configured hooks at each event and reads their answer as Claude Code defines it: exit 0 is
 * success (stdout, for `UserPromptSubmit` and `SessionStart`, is context for the model); exit 2 blocks,
 * with stderr as the reason (a `PreToolUse` call is not run and the model is told why; a prompt is not
 * sent); any other exit is a failure the user is told of, nothing blocked. JSON on stdout is honoured where
 * simple: `{"decision": "block", "reason"}`, `{"continue": false, "stopReason"}`, and `PreToolUse`'s
 * `hookSpecificOutput.permissionDecision: "deny"` with its reason. An "allow" is ignored: a hook never
 * grants an approval (the approval rules and the user do).
 */
import { TOOL_EVENTS, type HookCommand, type HookEvent } from './hookConfig';
import type { HookCommandRunner, HookProvider } from './ports';
import { hookToolName, matcherSelects } from './toolNames';

/** The bound of a hook without its own `timeout` (Claude Code's default too). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** Most characters of a hook's output kept (what reaches the model or the user is bounded like any result). */
export const HOOK_OUTPUT_MAX_CHARS = 10_000;

export interface HookVerdict {
  /** Why the action is blocked (the hooks' own words, redacted); undefined: go on. */
  readonly block?: string;
  /** Context for the model (`UserPromptSubmit`, `SessionStart` stdout), redacted; '' when none. */
  readonly context: string;
  /** What the user should hear: failures, timeouts (redacted). */
  readonly notices: readonly string[];
}

export interface SessionHooksDeps {
  readonly provider: HookProvider;
  readonly runner: HookCommandRunner;
  readonly cwd: string;
  readonly sessionId: () => string;
  /** The bound of a hook without its own `timeout`, in seconds (`cairn.hooks.timeoutSeconds`). */
  readonly timeoutSeconds: () => number;
  /** Replaces every secret Cairn knows in a hook's output before anyone sees it. */
  readonly redact: (text: string) => string;
  readonly log?: (line: string) => void;
}

export class SessionHooks {
  constructor(private readonly deps: SessionHooksDeps) {}

  /** Runs the hooks of `event` (for a tool event, those whose matcher selects `tool`) in order, each with `payload` on stdin. */
  async run(
    event: HookEvent,
    payload: Record<string, unknown>,
    options: { tool?: string; signal?: AbortSignal } = {},
  ): Promise<HookVerdict> {
    const all = await this.deps.provider.hooks();
    const selected = all.filter(
      (h) => h.event === event && (!TOOL_EVENTS.has(event) || (options.tool !== undefined && matcherSelects(h.matcher, options.tool))),
    );
    const context: string[] = [];
    const notices: string[] = [];
    const stdin = JSON.stringify({
      session_id: this.deps.sessionId(),
      cwd: this.deps.cwd,
      hook_event_name: event,
      ...(options.tool !== undefined ? { tool_name: hookToolName(options.tool), cairn_tool_name: options.tool } : {}),
      ...payload,
    });
    for (const hook of selected) {
      const timeoutMs = (hook.timeoutSeconds ?? this.deps.timeoutSeconds()) * 1000;
      const ran = await this.deps.runner.run(hook.command, {
        stdin,
        cwd: this.deps.cwd,
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const stdout = this.clean(ran.stdout);
      const stderr = this.clean(ran.stderr);
      const label = `The ${event} hook \`${shorten(hook.command)}\` (${hook.source})`;
      this.deps.log?.(`${label} exited ${ran.timedOut ? `killed after ${timeoutMs / 1000} s` : String(ran.exitCode)}.`);
      if (ran.timedOut) {
        notices.push(
          `${label} did not finish in ${timeoutMs / 1000} s and was stopped; Cairn went on without it. Raise its "timeout" or cairn.hooks.timeoutSeconds if it needs longer.`,
        );
        continue;
      }
      if (ran.exitCode === 2) return { block: stderr || `${label} blocked this without saying why.`, context: context.join('\n'), notices };
      if (ran.exitCode !== 0) {
        notices.push(`${label} failed (exit ${String(ran.exitCode)})${stderr ? `: ${stderr}` : ''}. Nothing was blocked.`);
        continue;
      }
      const json = parseJsonOutput(stdout);
      if (json) {
        const blocked = blockOf(json, event);
        if (blocked !== undefined)
          return { block: this.clean(blocked) || `${label} blocked this without saying why.`, context: context.join('\n'), notices };
        const extra = additionalContext(json);
        if (extra) context.push(this.clean(extra));
      } else if (stdout && (event === 'UserPromptSubmit' || event === 'SessionStart')) {
        context.push(stdout);
      }
    }
    return { context: context.join('\n'), notices };
  }

  private clean(text: string): string {
    const redacted = this.deps.redact(text.trim());
    return redacted.length > HOOK_OUTPUT_MAX_CHARS
      ? `${redacted.slice(0, HOOK_OUTPUT_MAX_CHARS)}\n[hook output cut at ${HOOK_OUTPUT_MAX_CHARS} characters]`
      : redacted;
  }
}

export type HookList = readonly HookCommand[];

function parseJsonOutput(stdout: string): Record<string, unknown> | undefined {
  if (!stdout.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(stdout);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The reason a JSON answer blocks with, or undefined when it does not block. */
function blockOf(json: Record<string, unknown>, event: HookEvent): string | undefined {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (json.continue === false) return text(json.stopReason) || text(json.reason);
  if (json.decision === 'block') return text(json.reason);
  const specific = json.hookSpecificOutput;
  if (event === 'PreToolUse' && typeof specific === 'object' && specific !== null) {
    const s = specific as Record<string, unknown>;
    if (s.permissionDecision === 'deny') return text(s.permissionDecisionReason);
  }
  return undefined;
}

function additionalContext(json: Record<string, unknown>): string | undefined {
  const specific = json.hookSpecificOutput;
  if (typeof specific !== 'object' || specific === null) return undefined;
  const extra = (specific as Record<string, unknown>).additionalContext;
  return typeof extra === 'string' && extra.trim() ? extra.trim() : undefined;
}

function shorten(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
