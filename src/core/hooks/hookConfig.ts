/**
 * Hooks in Claude Code's settings format (`hooks` in `.claude/settings.json`, `.cairn/settings.json`,
 * `~/.claude/settings.json`, `~/.cairn/settings.json`):
 *
 *     { "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "…", "timeout": 30 } ] } ] } }
 *
 * Read strictly: an unknown event, a hook that is not `type: "command"` or a matcher that is not a valid
 * regular expression is a problem reported to the user, and that entry is skipped (never guessed at).
 */
import { createHash } from 'node:crypto';

export const HOOK_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'Stop', 'SessionStart'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Events whose matcher is tested against a tool name; the others run every hook they list. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse']);

export type HookOrigin = 'workspace' | 'user';

export interface HookCommand {
  readonly event: HookEvent;
  /** The matcher as written ('' or '*': every tool). */
  readonly matcher: string;
  readonly command: string;
  /** Seconds; undefined: the `cairn.hooks.timeoutSeconds` bound. */
  readonly timeoutSeconds?: number;
  /** Where it was configured (`.claude/settings.json`, `~/.claude/settings.json`). */
  readonly source: string;
  readonly origin: HookOrigin;
}

export interface HookConfigProblem {
  readonly source: string;
  readonly problem: string;
}

export interface ParsedHooks {
  readonly hooks: readonly HookCommand[];
  readonly problems: readonly HookConfigProblem[];
}

/** The hooks a settings object's `hooks` value defines (undefined or absent: none). */
export function parseHooks(value: unknown, source: string, origin: HookOrigin): ParsedHooks {
  const hooks: HookCommand[] = [];
  const problems: HookConfigProblem[] = [];
  const problem = (text: string): void => void problems.push({ source, problem: text });
  if (value === undefined || value === null) return { hooks, problems };
  if (!isRecord(value)) return { hooks, problems: [{ source, problem: '`hooks` must be an object of events, as in Claude Code.' }] };
  for (const [event, groups] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problem(`The hook event "${event.slice(0, 40)}" is not one Cairn runs (${HOOK_EVENTS.join(', ')}); its hooks are skipped.`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problem(`hooks.${event} must be a list of { "matcher", "hooks" } entries.`);
      continue;
    }
    for (const [at, group] of groups.entries()) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) {
        problem(`hooks.${event}[${at}] must be { "matcher": "…", "hooks": [ … ] }.`);
        continue;
      }
      const matcher = typeof group.matcher === 'string' ? group.matcher : '';
      if (!validMatcher(matcher)) {
        problem(`hooks.${event}[${at}].matcher is not a valid regular expression: ${JSON.stringify(matcher.slice(0, 60))}.`);
        continue;
      }
      for (const [n, hook] of group.hooks.entries()) {
        const where = `hooks.${event}[${at}].hooks[${n}]`;
        if (!isRecord(hook) || hook.type !== 'command' || typeof hook.command !== 'string' || !hook.command.trim()) {
          problem(`${where} must be { "type": "command", "command": "…" } (Cairn runs command hooks only).`);
          continue;
        }
        const timeout = hook.timeout;
        if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0) || timeout > 3600)) {
          problem(`${where}.timeout must be a number of seconds between 1 and 3600.`);
          continue;
        }
        hooks.push({
          event: event as HookEvent,
          matcher,
          command: hook.command,
          ...(typeof timeout === 'number' ? { timeoutSeconds: timeout } : {}),
          source,
          origin,
        });
      }
    }
  }
  return { hooks, problems };
}

/** What an approval of a file's hooks is tied to: a hash of their definitions, so any change asks again. */
export function hooksFingerprint(hooks: readonly HookCommand[]): string {
  const canonical = hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSeconds ?? null]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function validMatcher(matcher: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  try {
    new RegExp(`^(?:${matcher})$`);
    return true;
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
