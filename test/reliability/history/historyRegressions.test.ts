/**
 * Every failure the model-based history suite found (README.md beside this file), shrunk and kept as a named
 * test: the very sequence of moves, replayed with every check after every step.
 */
import fc from 'fast-check';
import { afterEach, describe, it } from 'vitest';
import type { Behaviour } from './behaviour';
import { Busy, Compact, Crash, EditAndResend, Restore, Retry, Send, Undo, type HistoryCommand } from './commands';
import { HistoryModel } from './model';
import { HistoryRig } from './rig';

let rig: HistoryRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Replays `moves` on a fresh session, checking everything after each. */
async function replay(moves: readonly HistoryCommand[]): Promise<void> {
  rig = await HistoryRig.start();
  const real = rig;
  await fc.asyncModelRun(() => ({ model: new HistoryModel(), real }), moves);
}

const answer = (...steps: Behaviour['steps']): Behaviour => ({ steps, end: 'answer' });
const readA = [{ tool: 'read', file: 0 }] as const;
const writeA = { tool: 'write', file: 0, lines: 2 } as const;
const talk = answer();

describe('found by the model-based history suite', () => {
  it('a compaction keeps no stub naming a read it summarized (seed 2929: two reads of one file, then Compact)', async () => {
    await replay([new Send(answer(readA)), new Send(answer(readA)), new Compact()]);
  });

  it('edit and resend of the first message after a compaction keeps the summary (seed 550: two sends, Compact, edit the first kept message)', async () => {
    // The emergency stage keeps the last turn, its message first, with the summary merged into it: going back
    // before that message dropped the summary too, and the model forgot everything before it.
    await replay([new Send(talk), new Send(talk), new Compact(), new EditAndResend(0, talk)]);
  });

  it("a rewind to a first message keeps none of that message's own notes (seed 2000: restores of restores, then Retry)", async () => {
    // The first fix of the case above kept every Cairn block before the user's words: a restore's note was kept
    // alone, the conversation seemed to wait for an answer, and Retry sent the note by itself.
    await replay([
      new Crash(8, answer([writeA])),
      new Restore(0, true, true),
      new Restore(3, false, false),
      new Send(talk),
      new Restore(2, true, false),
      new Retry(answer([writeA, { tool: 'bash', command: 0 }])),
    ]);
  });

  it("a compaction inside a run summarizes the run's own message: its checkpoint restores files only (seed 2929)", async () => {
    // The busy send's answers grow the context past the threshold mid-run; the compaction keeps the run's tail from
    // the cut-off note on, so the send's text is summarized. The session refused the conversation restore, rightly;
    // the model had only marked the checkpoints that existed before the compaction as lost, not the run's own.
    const edit = { tool: 'edit', file: 0 } as const;
    const w = (lines: number) => ({ tool: 'write', file: 0, lines }) as const;
    const task = { tool: 'task', file: 0 } as const;
    await replay([
      new Send({
        steps: [
          [w(2), edit, w(13)],
          [w(9), w(39)],
        ],
        end: 'answer',
        cut: { answer: 0, events: 4 },
      }),
      new Busy('send', { steps: [[task, w(8), w(26)], readA], end: 'answer', cut: { answer: 1, events: 4 } }),
      new Restore(9, true, false),
    ]);
  });
  it('a compaction the crashed process made but the journal never kept loses no checkpoint (seed 401)', async () => {
    // The crashing run compacted automatically after its first event; the copy the reopen starts from was taken at
    // that first event, so the reopened session never compacted and the edited message's checkpoint still takes the
    // conversation back. The session went back, rightly; the model had kept the compaction's losses.
    const w = (lines: number) => ({ tool: 'write', file: 0, lines }) as const;
    const bash4 = { tool: 'bash', command: 4 } as const;
    await replay([
      new Send(talk),
      new EditAndResend(0, { steps: [[w(21)]], end: 'answer', cut: { answer: 0, events: 4 } }),
      new Crash(0, {
        steps: [
          [w(35), bash4, bash4],
          [{ tool: 'task', file: 0 }, ...readA],
        ],
        end: 'answer',
      }),
      new Restore(0, true, false),
    ]);
  });
  /**
   * Seed 101's shared start: two sends, a compaction, the first kept message edited and resent with a write, then
   * "Restore Files and Conversation" to it, which leaves the compaction's summary waiting.
   */
  const writeTwo = { tool: 'write', file: 0, lines: 2 } as const;
  const restoredAfterCompactedEdit = () => [
    new Send(talk),
    new Busy('send', talk),
    new Compact(),
    new EditAndResend(0, answer([writeTwo])),
    new Restore(0, true, false),
  ];
  it("a Retry of the compaction's opening alone names that message for its checkpoint (seed 101)", async () => {
    // Restoring the edited first message after a compaction with the conversation keeps the summary, waiting; the
    // Retry answers it and writes a file, so its checkpoint names Cairn's own first message (no text of the user's
    // is in it). The model had required a user's message there. "And conversation" to that checkpoint is refused (no
    // message of the user's to go back before, as for any place before the compaction): files only.
    await replay([
      ...restoredAfterCompactedEdit(),
      new Retry(answer([writeTwo, ...readA])),
      new Send(talk),
      new Restore(2, true, false),
      new Send(talk),
    ]);
  });
  it('a second restore of files and conversation to the edited first message after a compaction is refused (seed 101)', async () => {
    // The first restore leaves only the compaction's summary, waiting: the checkpoint's message (the edited text) is
    // gone, so "and conversation" to it again is refused, as the session says. The model had counted the waiting
    // summary as the checkpoint's message.
    await replay([...restoredAfterCompactedEdit(), new Restore(0, true, false)]);
  });
  it('after the summary a restore left is answered by Retry, the restored checkpoint restores files only (seed 101)', async () => {
    // The Retry answers the summary at the checkpoint's place, so the edited message's place now holds Cairn's own
    // message: the later send is not the checkpoint's message, and "and conversation" is refused, as the session says.
    await replay([...restoredAfterCompactedEdit(), new Retry(talk), new Busy('send', talk), new Restore(0, true, false)]);
  });

  it("a restore's checkpoint made while a compaction was active is lost with it when the compaction is undone (seeds 4801, 5701)", async () => {
    // Compact, restore files (its checkpoint names a place in the compacted generation), Undo the compaction:
    // the session refused "and conversation" to that checkpoint, rightly; the model still thought it reachable.
    const writeAndRun = answer([writeA, { tool: 'bash', command: 0 }]);
    await replay([
      new Send(writeAndRun),
      new Compact(),
      new Restore(0, false, false),
      new Undo(),
      new Restore(3, false, false),
      new Restore(0, false, false),
      new Send(answer([writeA])),
      new Restore(6, true, false),
    ]);
    await rig?.close();
    rig = undefined;
    await replay([
      new Busy('send', writeAndRun),
      new Compact(),
      new Restore(0, false, false),
      new Undo(),
      new Crash(0, talk),
      new Restore(9, true, false),
    ]);
  });
});
