/**
 * What the status bar says about keep-warm (issue 31 §2: "shown in the status bar"): a short mark on the item
 * while requests are planned, and a tooltip line saying what it does, when the next goes and why it stopped.
 * Nothing at all while `cairn.cache.keepWarm` is "off" (the default).
 */
import type { KeepWarmState, KeepWarmStop } from '../core/session/keepWarm';

const STOPPED: Readonly<Record<KeepWarmStop, string>> = {
  user_returned: 'you sent a message',
  window_closed: 'the window closed',
  session_closed: 'the session was closed',
  plan_done: 'every planned request was sent',
  failed: 'a request failed (see the Cairn log)',
  cache_expired: 'the cache expired before the next request was due (the machine slept?)',
  run_ended: 'the tool run ended',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function keepWarmStatus(state: KeepWarmState | undefined, now: number): { mark: string; line: string } | undefined {
  if (!state || state.kind === 'off') return undefined;
  if (state.kind === 'idle') return { mark: '', line: `Keep-warm: ${state.reason}` };
  if (state.kind === 'stopped') {
    return { mark: '', line: `Keep-warm stopped after ${plural(state.pingsSent, 'request')}: ${STOPPED[state.reason]}.` };
  }
  const inSeconds = Math.max(0, Math.round((state.nextPingAt - now) / 1000));
  const next = inSeconds >= 60 ? `in ${Math.ceil(inSeconds / 60)} min` : `in ${inSeconds} s`;
  return {
    mark: ' · $(flame) warm',
    line:
      `Keeping the cache warm ${state.during === 'tool_run' ? 'during a long tool run' : 'while you are away'}: ${state.pingsSent} of ${plural(state.pingsPlanned, 'request')} sent, the next ${next} ` +
      `(each reads the context again at a tenth of the price). Off with the setting cairn.cache.keepWarm.`,
  };
}
