/**
 * The child process of the journal crash test. It says `ready` once loaded, reads its orders (one JSON
 * line on stdin), opens the session for writing and appends records without end, printing
 * `ack <seq> <id> <index>` (a result) or `ack <seq> message` only after `append` resolved, i.e. after the
 * record was written and fsynced. The parent kills it with SIGKILL at a moment of its choosing.
 *
 * In a `drill` it instead leaves a half-written record at the end of the file, exactly what a kill in the
 * middle of a write leaves, says `torn`, and waits to be killed, so every run sees torn tails.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_FILE, SessionJournal } from '../../../src/core/journal/node/sessionJournal';
import { crashBody, crashResultId, seededRandom } from './crashBodies';

export interface CrashOrders {
  readonly dir: string;
  readonly sessionId: string;
  /** Seed of the session's bodies (see crashBodies.ts). */
  readonly seed: number;
  /** Seed of this run's choices. */
  readonly runSeed: number;
  /** Leave a torn record after this many acks, then wait. */
  readonly drillAfter?: number;
}

function say(line: string): void {
  // Writes to a pipe are synchronous on POSIX, so an ack has left the process when this returns.
  process.stdout.write(`${line}\n`);
}

async function readOrders(): Promise<CrashOrders> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    const newline = text.indexOf('\n');
    if (newline >= 0) return JSON.parse(text.slice(0, newline)) as CrashOrders;
  }
  throw new Error('stdin closed before orders arrived');
}

async function run(orders: CrashOrders): Promise<void> {
  const opened = await SessionJournal.open(orders.dir, orders.sessionId);
  if (opened.corruption) throw opened.corruption;
  const journal = opened.journal;
  say(`opened ${journal.lastSeq}`);
  const random = seededRandom(orders.runSeed);
  let index = journal.ids().length;
  for (let acks = 0; ; acks++) {
    if (orders.drillAfter === acks) {
      const body = crashBody(orders.seed, index);
      const line = JSON.stringify({
        type: 'tool_result',
        seq: journal.lastSeq + 1,
        at: Date.now(),
        result: { id: crashResultId(index), body },
      });
      const cut = 1 + Math.floor(random() * (line.length - 1));
      await fs.appendFile(join(orders.dir, orders.sessionId, JOURNAL_FILE), line.slice(0, cut));
      say(`torn ${Buffer.byteLength(line.slice(0, cut))}`);
      await new Promise(() => undefined);
    }
    if (random() < 0.1) {
      const seq = await journal.append({
        type: 'user_message',
        message: { role: 'user', content: [{ type: 'text', text: `message after ${index} results` }] },
      });
      say(`ack ${seq} message`);
      continue;
    }
    const id = crashResultId(index);
    await journal.put({
      id,
      callId: `toolu_${index}`,
      tool: 'bash',
      input: { command: `run ${index}` },
      bracket: `[${id}]`,
      body: crashBody(orders.seed, index),
      kind: 'full',
    });
    say(`ack ${journal.lastSeq} ${id} ${index}`);
    index += 1;
  }
}

say('ready');
readOrders()
  .then(run)
  .catch((error: unknown) => {
    say(`error ${error instanceof Error ? error.message : String(error)}`.replace(/\n/g, ' '));
    process.exit(1);
  });
