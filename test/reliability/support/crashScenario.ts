/** The script the crash suite's local server plays for one child run (see sessionCrashChild.ts). */
/**
 * Rounds of work: a slow stream, reads and a command, a write, an answer; a summary for the compaction after
 * every round. The check runs twice a round, so its first output is superseded and elision runs.
 */
/** More children than a session of the suite starts (one a round, a few rounds a run, 25 runs a session). */
const CHILD_IDS = 400;

export function crashScenarioJson(seed: number): unknown {
  const turns: unknown[] = [];
  for (let round = 0; round < 40; round++) {
    const f = (seed + round) % 6;
    const check = `sleep 0.0${1 + (round % 4)}; echo checked ${round % 4}`;
    turns.push({ user: `round ${round}` });
    turns.push({ fault: { delay_ms: 2 } });
    turns.push({
      assistant: {
        text: `Reading f${f} and running a check.`,
        tool_calls: [
          { name: 'read', input: { path: `src/f${f}.ts` } },
          { name: 'bash', input: { command: check } },
          // A sub-agent every round: the kill may land while it works (see CHILD_TURNS below).
          { name: 'task', input: { description: `Look at f${f}`, prompt: `Read src/f${f}.ts and say what it exports.`, kind: 'explore' } },
        ],
      },
    });
    turns.push({
      assistant: {
        tool_calls: [
          { name: 'write', input: { path: `notes/n${(seed + round) % 9}.md`, content: `note ${seed} ${round}\n`.repeat(1 + (round % 5)) } },
          { name: 'grep', input: { pattern: `v${round % 30}\\b` } },
          { name: 'bash', input: { command: check } },
        ],
      },
    });
    turns.push({ fault: { delay_ms: 1 } });
    turns.push({ assistant: { text: `Round ${round} done: f${f} is fine. `.repeat(3) } });
    turns.push({
      summary: `Summary through round ${round}: files under src/ were read, notes were written, checks passed. `.padEnd(320, '.'),
    });
  }
  // A reopened session goes on counting its children (explore-7 after six), and a run cannot know where it
  // starts: every id a session of the suite can reach has its turns, each agent on its own cursor.
  for (let n = 1; n <= CHILD_IDS; n++) {
    const agent = `explore-${n}`;
    turns.push({ assistant: { agent, text: 'Reading it.', tool_calls: [{ name: 'read', input: { path: `src/f${n % 6}.ts` } }] } });
    turns.push({ fault: { delay_ms: 2, agent } });
    turns.push({ assistant: { agent, text: `src/f${n % 6}.ts exports thirty constants, v0 to v29. `.repeat(4) } });
  }
  return { model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 }, workspace: {}, turns };
}
