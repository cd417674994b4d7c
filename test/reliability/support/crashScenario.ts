/** The script the crash suite's local server plays for one child run (see sessionCrashChild.ts). */
/**
 * Rounds of work: a slow stream, reads and a command, a write, an answer; a summary for the compaction after
 * every round. The check runs twice a round, so its first output is superseded and elision runs.
 */
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
  return { model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 }, workspace: {}, turns };
}
