import { describe, expect, it } from 'vitest';
import type { ToolExecutor } from '../agent/ports';
import type { PreparedImage } from '../images/preparedImage';
import type { LedgerResult, ToolCall } from '../ledger/types';
import { HookedTools } from './hookedTools';
import { SessionHooks } from './sessionHooks';

/** A FAKE ledger that records what reaches it (the real one is exercised through the loop in src/node/headless). */
function fakeLedger(seen: string[]): ToolExecutor & { state(): unknown } {
  const result = (text: string) => ({ id: 'a1b2', text, isError: false }) as unknown as LedgerResult;
  return {
    execute: async (call: ToolCall) => (seen.push(`execute ${call.name}`), result('ran')),
    answerWithoutRunning: async (call: ToolCall) => (seen.push(`unrun ${call.name}`), result('not run')),
    attachImage: async (_call: ToolCall, name: string) => (seen.push(`image ${name}`), result(`[#a1b2 image ${name} 2×1, ~1 tokens]`)),
    state: () => ({}),
  };
}

const NO_HOOKS = new SessionHooks({
  provider: { hooks: async () => [] },
  runner: { run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false }) },
  cwd: '/w',
  sessionId: () => 's1',
  timeoutSeconds: () => 60,
  redact: (text) => text,
});

describe('the loop’s tools with hooks around them', () => {
  it('hands a pasted image to the ledger (without it the image would not be sent)', async () => {
    const seen: string[] = [];
    const tools = new HookedTools(fakeLedger(seen), NO_HOOKS, () => undefined);
    const image: PreparedImage = { mediaType: 'image/png', data: 'AA==', size: { width: 2, height: 1 }, original: { width: 2, height: 1 } };
    const result = await tools.attachImage?.({ callId: 'mention_x_0', name: 'image', input: { name: 'shot.png' } }, 'shot.png', image);
    expect(result?.text).toBe('[#a1b2 image shot.png 2×1, ~1 tokens]');
    expect(seen).toEqual(['image shot.png']);
  });
});
