/**
 * Child of the session lock tests: another process taking a session's lock with the real code. Reads
 * commands from stdin, one a line: `acquire` prints `held` or `locked <holder pid|->`; `release` prints
 * `released`. Exits when stdin closes; a test that wants a crashed writer kills it instead.
 */
import { createInterface } from 'node:readline';
import { SessionLockedError } from '../../../src/core/journal/errors';
import { SessionLock } from '../../../src/core/journal/node/sessionLock';

async function main(): Promise<void> {
  const [sessionDir] = process.argv.slice(2);
  if (!sessionDir) throw new Error('usage: lockHolder <sessionDir>');
  let lock: SessionLock | undefined;
  for await (const command of createInterface({ input: process.stdin })) {
    if (command === 'acquire') {
      try {
        lock = await SessionLock.acquire(sessionDir, 'child-session');
        process.stdout.write('held\n');
      } catch (error) {
        if (!(error instanceof SessionLockedError)) throw error;
        process.stdout.write(`locked ${error.holder?.pid ?? '-'}\n`);
      }
    } else if (command === 'release') {
      await lock?.release();
      process.stdout.write('released\n');
    }
  }
}

main().catch((error: unknown) => {
  process.stdout.write(`error ${String(error)}\n`);
  process.exitCode = 1;
});
