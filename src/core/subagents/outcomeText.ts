import type { SubagentInfo, SubagentOutcome } from '../subagentTypes';

/** `[explore-1: 4 requests, 12,345 tokens, $0.0123; results #a1f2..#c3d4]`: what the parent learns of the child's cost. */
export function outcomeLine(agent: string, outcome: SubagentOutcome): string {
  const { usage } = outcome;
  const tokens = usage.input + usage.cacheWrite + usage.cacheRead + usage.output;
  const cost = outcome.costUsd === null ? 'cost unknown' : `$${outcome.costUsd.toFixed(4)}`;
  const ids = outcome.resultIds;
  const results =
    ids.length === 0 ? 'no results' : ids.length === 1 ? `result ${ids[0]}` : `results ${ids[0]}..${ids.at(-1)} (${ids.length})`;
  const requests = `${outcome.requests} request${outcome.requests === 1 ? '' : 's'}`;
  return `[${agent}: ${requests}, ${tokens.toLocaleString('en-US')} tokens, ${cost}; ${results}]`;
}

/**
 * The `task` call's result: the child's final answer and its one line, never its transcript. A child that
 * did not end its turn says why first, and gives what it had said last.
 */
export function taskResultText(
  info: SubagentInfo,
  outcome: SubagentOutcome,
  finalAnswer: string,
  /** The error it stopped on, or for `budget` the notice it was stopped with. */
  error?: string,
): { text: string; isError: boolean } {
  const line = outcomeLine(info.id, outcome);
  const said = finalAnswer.trim();
  const last = said === '' ? 'It had written no answer yet.' : `What it had written last:\n${said}`;
  switch (outcome.reason) {
    case 'end_turn':
      return { text: `${said === '' ? `${info.id} ended without an answer.` : said}\n\n${line}`, isError: false };
    case 'max_turns':
      return {
        text: `${info.id} was stopped after ${outcome.requests} requests (cairn.subagents.maxTurns) before it finished. ${last}\n\n${line}`,
        isError: false,
      };
    case 'budget':
      // `error` holds why: the notice its loop stopped with (the user chose to stop the turn's sub-agents).
      return {
        text: `${info.id} was stopped after ${outcome.requests} requests. ${error ?? 'The user chose to stop it.'} ${last} Do the rest yourself, or tell the user what is left.\n\n${line}`,
        isError: false,
      };
    case 'max_tokens':
      return { text: `${info.id}'s answer reached its output limit (max_tokens) and stopped. ${last}\n\n${line}`, isError: false };
    case 'cancelled':
      return { text: `Cancelled by the user while ${info.id} was working. ${last}\n\n${line}`, isError: true };
    case 'interrupted':
      return {
        text: `Not finished: Cairn stopped (the window closed or the process ended) while ${info.id} was working. Its results can be recalled by id; check its effects before starting it again. ${last}\n\n${line}`,
        isError: true,
      };
    case 'refusal':
      return { text: `${info.id} declined the task (the model refused). ${last}\n\n${line}`, isError: true };
    case 'error':
      return { text: `${info.id} stopped on an error: ${error ?? 'unknown error'}. ${last}\n\n${line}`, isError: true };
  }
}
