import { describe, expect, it } from 'vitest';
import { hooksFingerprint, parseHooks, type HookCommand } from './hookConfig';
import type { HookCommandRunner, HookRun } from './ports';
import { SessionHooks } from './sessionHooks';
import { matcherSelects } from './toolNames';

/** A FAKE runner: answers each command from a table (the real one is exercised in src/node/headless/hooks.test.ts). */
function fakeRunner(answers: Record<string, Partial<HookRun>>, seen: string[] = []): HookCommandRunner {
  return {
    run: async (command, { stdin }) => {
      seen.push(stdin);
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, ...answers[command] };
    },
  };
}

function hooksOf(list: readonly HookCommand[], runner: HookCommandRunner): SessionHooks {
  return new SessionHooks({
    provider: { hooks: async () => list },
    runner,
    cwd: '/w',
    sessionId: () => 's1',
    timeoutSeconds: () => 60,
    redact: (text) => text.replaceAll('sk-ant-secret', '[REDACTED API key]'),
  });
}

describe('hook settings', () => {
  it('reads Claude Code’s format and reports what it skips', () => {
    const parsed = parseHooks(
      {
        PreToolUse: [
          {
            matcher: 'Edit|Write',
            hooks: [
              { type: 'command', command: 'fmt', timeout: 5 },
              { type: 'prompt', prompt: 'x' },
            ],
          },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'x' }] }],
        PostToolUse: [{ matcher: '(', hooks: [] }],
      },
      '.claude/settings.json',
      'workspace',
    );
    expect(parsed.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Edit|Write',
        command: 'fmt',
        timeoutSeconds: 5,
        source: '.claude/settings.json',
        origin: 'workspace',
      },
    ]);
    expect(parsed.problems.map((p) => p.problem)).toEqual([
      expect.stringMatching(/hooks\[1\] must be \{ "type": "command"/),
      expect.stringMatching(/"Notification" is not one Cairn runs/),
      expect.stringMatching(/matcher is not a valid regular expression/),
    ]);
  });

  it('the approval fingerprint changes with any command, matcher or bound', () => {
    const base = parseHooks({ Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] }, 's', 'workspace').hooks;
    const changed = parseHooks({ Stop: [{ hooks: [{ type: 'command', command: 'b' }] }] }, 's', 'workspace').hooks;
    expect(hooksFingerprint(base)).toBe(
      hooksFingerprint(parseHooks({ Stop: [{ hooks: [{ type: 'command', command: 'a' }] }] }, 'other', 'user').hooks),
    );
    expect(hooksFingerprint(base)).not.toBe(hooksFingerprint(changed));
  });

  it('Claude Code’s tool names select Cairn’s tools; apply_patch is matched as the edit family', () => {
    expect(matcherSelects('Bash', 'bash')).toBe(true);
    expect(matcherSelects('Edit|Write', 'apply_patch')).toBe(true);
    expect(matcherSelects('Edit', 'read')).toBe(false);
    expect(matcherSelects('LS', 'list')).toBe(true);
    expect(matcherSelects('', 'anything')).toBe(true);
  });
});

describe('a hook’s answer', () => {
  const pre = (command: string): HookCommand => ({ event: 'PreToolUse', matcher: 'Bash', command, source: 's', origin: 'user' });

  it('JSON permissionDecision "deny" blocks with its reason; "allow" grants nothing; output is redacted', async () => {
    const hooks = hooksOf(
      [pre('allow'), pre('deny')],
      fakeRunner({
        allow: { stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' },
        deny: { stdout: '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"key sk-ant-secret leaked"}}' },
      }),
    );
    expect(await hooks.run('PreToolUse', {}, { tool: 'bash' })).toEqual({
      block: 'key [REDACTED API key] leaked',
      context: '',
      notices: [],
    });
  });

  it('a failing hook (exit 1) blocks nothing and tells the user; a hook for another tool does not run', async () => {
    const seen: string[] = [];
    const hooks = hooksOf(
      [pre('fails'), { ...pre('other'), matcher: 'Read' }],
      fakeRunner({ fails: { exitCode: 1, stderr: 'boom' } }, seen),
    );
    const verdict = await hooks.run('PreToolUse', { tool_input: { command: 'ls' } }, { tool: 'bash' });
    expect(verdict.block).toBeUndefined();
    expect(verdict.notices).toEqual([
      expect.stringMatching(/^The PreToolUse hook `fails` \(s\) failed \(exit 1\): boom\. Nothing was blocked\./),
    ]);
    expect(seen).toHaveLength(1);
  });
});
