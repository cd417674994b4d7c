/**
 * Text and thinking deltas arrive far faster than the screen can show them (a provider streams tens to
 * hundreds a second). Each one applied alone re-renders the transcript, so they are collected and
 * applied together once per frame; anything else the host sends first applies what is collected, so the
 * order of events is never changed.
 */
import type { TurnEvent } from '../../src/shared/transcript';

type TextDelta = Extract<TurnEvent, { type: 'textDelta' | 'thinkingDelta' }>;
/** A child agent's streamed text (issue 19), batched the same way (never joined: it names its child). */
type ChildDelta = Extract<TurnEvent, { type: 'subagentEvent' }>;
export type StreamDelta = TextDelta | ChildDelta;

/** Calls `flush` once, soon: at the next frame in the page. */
export type FrameScheduler = (flush: () => void) => void;

/**
 * The next animation frame, or after 100 ms if no frame comes first: a hidden webview gets no frames,
 * and its transcript must still be current when it is shown again.
 */
export const nextFrame: FrameScheduler = (flush) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    flush();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
  setTimeout(once, 100);
};

export function isStreamDelta(message: { type: string }): message is StreamDelta {
  if (message.type === 'textDelta' || message.type === 'thinkingDelta') return true;
  return message.type === 'subagentEvent' && isStreamDelta((message as ChildDelta).event);
}

export class DeltaBatch {
  private pending: StreamDelta[] = [];
  private scheduled = false;

  constructor(
    private readonly apply: (deltas: readonly StreamDelta[]) => void,
    private readonly schedule: FrameScheduler = nextFrame,
  ) {}

  add(delta: StreamDelta): void {
    const last = this.pending.at(-1);
    // Consecutive deltas of one stream become one: appending their joined text is the same as each in turn.
    if (last && last.type !== 'subagentEvent' && delta.type !== 'subagentEvent' && last.type === delta.type && last.turn === delta.turn)
      this.pending[this.pending.length - 1] = { ...last, text: last.text + delta.text };
    else this.pending.push(delta);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Applies what is collected now (before any other event, and at each frame). */
  flush(): void {
    if (this.pending.length === 0) return;
    const deltas = this.pending;
    this.pending = [];
    this.apply(deltas);
  }
}
