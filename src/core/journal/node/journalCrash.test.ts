import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { splitLines } from '../../text/lines';
import { JOURNAL_FILE, SessionJournal } from './sessionJournal';
import { crashBody, crashResultId, seededRandom } from '../../../../test/support/journal/crashBodies';
import { LineChild } from '../../../../test/support/lineChild';
import { buildCrashWriter, scratchRoot } from '../../../../test/support/journal/crashChild';

/**
 * Issue 3's crash test: a child appends records and acknowledges each only after `append` resolved; the
 * parent kills it with SIGKILL at a random point, reopens the journal and checks that every acknowledged
 * record is intact and readable by offset, that ids and seqs continue, and that a torn tail is reported
 * exactly when the file ends in a partial line. The next child resumes the same session, so each session
 * survives many kills. The next child is started while the parent checks, to keep start-up off the clock.
 */

const KILLS = 210;
const KILLS_PER_SESSION = 10;

let work: string;
let script: string;
const children: LineChild[] = [];

beforeAll(async () => {
  work = await fs.mkdtemp(join(await scratchRoot(), 'cairn-crash-'));
  script = await buildCrashWriter(work);
});

afterAll(async () => {
  for (const child of children) child.kill();
  await Promise.all(children.map((c) => c.exited));
  await fs.rm(work, { recursive: true, force: true });
});

function startChild(): LineChild {
  const child = new LineChild(script);
  children.push(child);
  return child;
}

interface SessionUnderTest {
  readonly id: string;
  readonly seed: number;
  /** Acknowledged results: id → index. */
  readonly results: Map<string, number>;
  /** Acknowledged message seqs. */
  readonly messages: Set<number>;
  highestAck: number;
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

it(`every acknowledged record survives ${KILLS} SIGKILLs`, async () => {
  const seed = Number(process.env.CAIRN_CRASH_SEED ?? Date.now() % 0x7fffffff);
  const random = seededRandom(seed);
  const dir = join(work, 'sessions');
  let session: SessionUnderTest | undefined;
  let warm = startChild();
  const cpuBefore = process.cpuUsage();
  const tally = { torn: 0, tornFromKills: 0, early: 0, acks: 0, readOnlyChecks: 0 };

  for (let round = 0; round < KILLS; round++) {
    const where = `kill ${round + 1} (replay with CAIRN_CRASH_SEED=${seed})`;
    if (!session || round % KILLS_PER_SESSION === 0) {
      // Only the session under test is kept, so the scratch space stays small.
      if (session) await fs.rm(join(dir, session.id), { recursive: true, force: true });
      const id = `crash-${round}`;
      await (await SessionJournal.create(dir, { workspace: work, model: 'crash-test', sessionId: id })).close();
      session = { id, seed: Math.floor(random() * 0x7fffffff), results: new Map(), messages: new Set(), highestAck: 1 };
    }

    const child = warm;
    warm = startChild();
    expect(await child.nextLine(), where).toBe('ready');
    const mode = random();
    const drill = mode < 0.1;
    child.send({
      dir,
      sessionId: session.id,
      seed: session.seed,
      runSeed: Math.floor(random() * 0x7fffffff),
      ...(drill ? { drillAfter: Math.floor(random() * 4) } : {}),
    });

    const fresh = new Set<string>();
    const take = (line: string): void => {
      const [word, seq, id, index] = line.split(' ');
      if (word === 'error') throw new Error(`${where}: the child failed: ${line}`);
      if (word !== 'ack') return;
      tally.acks += 1;
      session!.highestAck = Math.max(session!.highestAck, Number(seq));
      if (id === 'message') session!.messages.add(Number(seq));
      else {
        session!.results.set(id!, Number(index));
        fresh.add(id!);
      }
    };

    if (mode < 0.18 && !drill) {
      // Kill soon after the orders: while it takes the lock, scans, truncates, or writes its first record.
      tally.early += 1;
      await turns(Math.floor(random() * 40));
    } else {
      const wanted = drill ? Infinity : 1 + Math.floor(random() * 8);
      let acks = 0;
      while (acks < wanted) {
        const line = await child.nextLine();
        if (line === undefined) throw new Error(`${where}: the child exited on its own`);
        if (line.startsWith('torn')) break;
        take(line);
        if (line.startsWith('ack')) acks += 1;
      }
      await turns(Math.floor(random() * 4));
    }
    child.kill();
    await child.exited;
    // Acks that left the child before it died count too: their appends had resolved.
    for (let line = await child.nextLine(); line !== undefined; line = await child.nextLine()) take(line);

    const path = join(dir, session.id, JOURNAL_FILE);
    const raw = await fs.readFile(path);
    const partial = raw.length - (raw.lastIndexOf(0x0a) + 1);
    const readOnly = random() < 0.4;
    if (readOnly) tally.readOnlyChecks += 1;
    const opened = await SessionJournal.open(dir, session.id, { readOnly });
    const journal = opened.journal;
    try {
      expect(opened.corruption, where).toBeUndefined();
      if (partial > 0) {
        tally.torn += 1;
        if (!drill) tally.tornFromKills += 1;
        expect(opened.tornTail?.bytes, where).toBe(partial);
      } else {
        expect(opened.tornTail, where).toBeUndefined();
      }
      const ids = journal.ids();
      expect(ids, `${where}: ids are consecutive`).toEqual(ids.map((_, i) => crashResultId(i)));
      expect(journal.lastSeq, where).toBeGreaterThanOrEqual(session.highestAck);
      const seqs = opened.records.map((r) => r.seq);
      expect(seqs, `${where}: seqs are consecutive`).toEqual(seqs.map((_, i) => i + 1));
      for (const seq of session.messages) {
        expect(opened.records[seq - 1]?.type, `${where}: message ${seq}`).toBe('user_message');
      }
      // Results acked this round are read back in full, and one older one at random: earlier rounds
      // read every older one when it was new, and the file is only ever appended to.
      const older = [...session.results.keys()].filter((id) => !fresh.has(id));
      const sample = older.length > 0 ? older[Math.floor(random() * older.length)]! : undefined;
      for (const id of older) expect(journal.has(id), `${where}: ${id} still stored`).toBe(true);
      for (const id of sample ? [...fresh, sample] : fresh) {
        const index = session.results.get(id)!;
        const slice = await journal.readLines(id, 1, Number.MAX_SAFE_INTEGER);
        const expected = splitLines(crashBody(session.seed, index));
        expect(slice?.total, `${where}: ${id} line count`).toBe(expected.length);
        expect(slice?.lines.join('\n') === expected.join('\n'), `${where}: ${id} body intact`).toBe(true);
      }
      if (!readOnly) {
        // Writing continues where the file now ends, with the next seq.
        expect((await fs.stat(path)).size, where).toBe(journal.byteSize);
        const next = await journal.append({ type: 'notice', level: 'info', kind: 'crash-test', message: `checked ${where}` });
        expect(next, where).toBe(opened.records.length + opened.skipped.length + 1);
      }
    } finally {
      await journal.close();
    }
  }

  // Drills guarantee torn tails whatever the scheduling; kills mid-write add real ones.
  expect(tally.torn).toBeGreaterThan(0);
  console.info(
    `journal crash test: ${KILLS} kills, ${tally.acks} acks checked, ${tally.torn} torn tails (${tally.tornFromKills} from real kills), ${tally.early} early kills, ${tally.readOnlyChecks} read-only reopens, parent cpu ${Math.round((process.cpuUsage(cpuBefore).user + process.cpuUsage(cpuBefore).system) / 1000)} ms`,
  );
}, 240_000);

it('two processes never write one journal: the second is refused while the first lives', async () => {
  const dir = join(work, 'two-windows');
  const first = await SessionJournal.create(dir, { workspace: work, model: 'm', sessionId: 'shared' });
  const orders = { dir, sessionId: 'shared', seed: 1, runSeed: 1 };

  const second = startChild();
  expect(await second.nextLine()).toBe('ready');
  second.send(orders);
  expect(await second.nextLine()).toMatch(new RegExp(`^error Session shared is open in process ${process.pid} on `));
  await second.exited;

  await first.close();
  const third = startChild();
  expect(await third.nextLine()).toBe('ready');
  third.send(orders);
  expect(await third.nextLine()).toBe('opened 1');
  // While the child holds it, this process is the one refused, and may still read.
  await expect(SessionJournal.open(dir, 'shared')).rejects.toThrow(/is open in process \d+/);
  const reader = await SessionJournal.open(dir, 'shared', { readOnly: true });
  expect(reader.corruption).toBeUndefined();
  await reader.journal.close();
  third.kill();
  await third.exited;
  // Its lock names a dead process now: taken over.
  const after = await SessionJournal.open(dir, 'shared');
  expect(after.journal.readOnly).toBe(false);
  await after.journal.close();
});
