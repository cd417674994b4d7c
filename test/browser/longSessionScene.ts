/**
 * Long sessions for the browser suite (issue 34): many turns of different heights (a question, tool lines
 * with their outcomes, an answer of a few paragraphs), and the events of one turn with hundreds of steps as
 * the host streams them. Posted as an `init` and as notifications, as the host sends them.
 */
import type { HostNotification, InitMessage, TranscriptItem, TurnView } from '../../src/shared/protocol';

/** A result id that is unique per turn and step (under 1,000 steps a turn): `#` and five hex digits. */
function resultId(turn: number, step: number): string {
  return `#${(0x10000 + turn * 1000 + step).toString(16)}`;
}

/** A finished command with its exit code and duration: its line has an outcome read to screen readers. */
export function commandItem(turn: number, step: number): TranscriptItem {
  const id = resultId(turn, step);
  return {
    type: 'tool',
    callId: `toolu_t${turn}_s${step}`,
    tool: 'bash',
    summary: `bash npm test -- case${step}`,
    status: 'done',
    result: {
      id,
      tool: 'bash',
      bracket: `[${id}]`,
      text: `[${id}]\ncase ${step} passed\n[exit code ${step % 3 === 0 ? 1 : 0}]`,
      kind: 'full',
      fullChars: 40,
      tokensSaved: 0,
      isError: false,
      outcome: { exitCode: step % 3 === 0 ? 1 : 0, durationMs: 1200 + step },
    },
  };
}

/** Turn `index`: its height varies with the index (one to three paragraphs, zero to four tool lines). */
export function sessionTurn(index: number): TurnView {
  const paragraphs = 1 + (index % 3);
  const answer = Array.from(
    { length: paragraphs },
    (_, p) => `Answer ${index}, part ${p + 1}: a paragraph that takes a few lines in a side panel, naming ${answerId(index)}.`,
  ).join('\n\n');
  return {
    index,
    items: [
      { type: 'user', text: `Question ${index}` },
      ...Array.from({ length: index % 5 }, (_, step) => commandItem(index, step)),
      { type: 'assistant', text: answer },
    ],
  };
}

/** The id turn `index`'s answer names (a recall link: the session's `resultIds` hold it). */
export function answerId(index: number): string {
  return resultId(index, 0);
}

/** A session of `count` finished turns, as the host's `init` after a reload. */
export function longSessionInit(base: InitMessage, count: number): InitMessage {
  const turns = Array.from({ length: count }, (_, i) => sessionTurn(i));
  const ids = turns.flatMap((turn) => [
    answerId(turn.index),
    ...turn.items.flatMap((item) => (item.type === 'tool' && item.result ? [item.result.id] : [])),
  ]);
  return { ...base, turns, resultIds: [...new Set([...base.resultIds, ...ids])], hasOlderTurns: false, busy: false };
}

/** What the host sends while turn `turn` runs `steps` commands: started, then each call started and finished. */
export function longTurnEvents(turn: number, prompt: string, steps: number): HostNotification[] {
  const events: HostNotification[] = [{ type: 'turnStarted', turn, text: prompt }];
  for (let step = 0; step < steps; step++) {
    const done = commandItem(turn, step) as Extract<TranscriptItem, { type: 'tool' }>;
    events.push({ type: 'toolStarted', turn, callId: done.callId, tool: done.tool, summary: done.summary });
    events.push({ type: 'toolFinished', turn, callId: done.callId, result: done.result! });
  }
  return events;
}
