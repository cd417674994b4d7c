/**
 * Information-equivalence: a scripted step may name text the model must have seen before it
 * (`"x-needs": [...]` beside the turn's kind). Before such a step is served to an agent, the gate
 * looks at the agent's latest request; a need that is not visible there (cut, elided, saved to a
 * file) gets the retrieval that agent's own tools allow served first, counted as an extra request.
 */
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import { toolResultText } from '../../src/node/localServer/promptBlocks';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn } from '../../src/node/scenario/types';
import { shellQuote } from './shellQuote';
import { shownResults, type ShownResult } from './shownResults';

/** Turn index → the texts that must be visible before that turn is served. */
export type NeedsByTurn = ReadonlyMap<number, readonly string[]>;

/** Reads the `x-needs` of every turn from the scenario's JSON (the parser leaves `x-` keys to tools). */
export function needsOf(json: unknown, source: string): NeedsByTurn {
  const turns = (json as { turns?: unknown } | null)?.turns;
  const out = new Map<number, string[]>();
  if (!Array.isArray(turns)) return out;
  turns.forEach((turn: unknown, index) => {
    const needs = (turn as Record<string, unknown> | null)?.['x-needs'];
    if (needs === undefined) return;
    if (!Array.isArray(needs) || !needs.every((n) => typeof n === 'string' && n !== '')) {
      throw new Error(`${source}: turns[${index}].x-needs must be a list of non-empty strings.`);
    }
    out.set(index, needs as string[]);
  });
  return out;
}

/** Everything the model is shown in a request: system, texts, tool calls and tool results. */
export function visibleText(request: WireRequest): string {
  const parts: string[] = [];
  for (const block of request.system) if (typeof block.text === 'string') parts.push(block.text);
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'tool_result') parts.push(toolResultText(block.content));
      else if (block.type === 'tool_use') parts.push(JSON.stringify(block.input ?? {}));
    }
  }
  return parts.join('\n');
}

export function missingNeeds(request: WireRequest, needs: readonly string[]): string[] {
  const visible = visibleText(request);
  // cline shows tool output inside JSON, so a need holding a quote or a backslash is visible escaped.
  return needs.filter((need) => !visible.includes(need) && !visible.includes(JSON.stringify(need).slice(1, -1)));
}

/**
 * The agent's way back to a text it was not shown: one tool call in its own vocabulary, or none.
 * `earlier` holds every result the agent was shown in an earlier request of the session, including
 * those its own compaction has since summarised away.
 */
export type Retriever = (
  need: string,
  request: WireRequest,
  upcoming: AssistantTurn,
  earlier: readonly ShownResult[],
) => Promise<AssistantTurn | undefined> | AssistantTurn | undefined;

export interface NeedsReport {
  /** Needs that were still not visible when their step was served (no retrieval found them). */
  readonly unmet: string[];
}

/** Retrievals tried per step before the step is served anyway (and the need reported unmet). */
const MAX_RETRIEVALS_PER_STEP = 3;

export function needsGate(
  needs: NeedsByTurn,
  retrieve: Retriever,
  notice: (message: string) => void,
): { hook: AgentHooks['before']; report: NeedsReport } {
  const report: NeedsReport = { unmet: [] };
  const tries = new Map<number, number>();
  // Every result seen so far, by its call (the latest text of a call made twice), in the order first seen.
  const seen = new Map<string, ShownResult>();
  const hook = async (request: WireRequest, upcoming: AssistantTurn): Promise<AssistantTurn | undefined> => {
    for (const result of shownResults(request)) seen.set(`${result.toolName}\0${JSON.stringify(result.input)}`, result);
    const wanted = needs.get(upcoming.index);
    if (!wanted) return undefined;
    const missing = missingNeeds(request, wanted);
    if (missing.length === 0) return undefined;
    const tried = tries.get(upcoming.index) ?? 0;
    const retrieval = tried < MAX_RETRIEVALS_PER_STEP ? await retrieve(missing[0]!, request, upcoming, [...seen.values()]) : undefined;
    if (!retrieval) {
      for (const need of missing) {
        report.unmet.push(`turn ${upcoming.index}: ${need}`);
        notice(`turn ${upcoming.index}: served without "${need}" visible (no retrieval found it)`);
      }
      return undefined;
    }
    tries.set(upcoming.index, tried + 1);
    return retrieval;
  };
  return { hook, report };
}

/** Lines around the first line holding `need` (1-based offset), the window every retrieval uses. */
export const RETRIEVAL_WINDOW = 20;
export function windowAround(text: string, need: string): { offset: number; limit: number } | undefined {
  const at = text.indexOf(need);
  if (at < 0) return undefined;
  const line = text.slice(0, at).split('\n').length;
  return { offset: Math.max(1, line - 5), limit: RETRIEVAL_WINDOW };
}

/**
 * After a compaction, a command output that held `need` is gone from the request and the agent has no copy
 * to read: its model runs the command again, filtered to the lines around it (as for a cut output). The
 * latest such command of the shell tool `shellTool` among the `earlier` results, or undefined when there
 * is none or this very command was already run in the request (no loop).
 */
export function commandAgain(need: string, request: WireRequest, earlier: readonly ShownResult[], shellTool: string): string | undefined {
  const source = [...earlier]
    .reverse()
    .find((r) => r.toolName === shellTool && typeof r.input.command === 'string' && r.text.includes(need));
  if (!source) return undefined;
  const command = `(${String(source.input.command)}) 2>&1 | grep -F -e ${shellQuote(need)} -B 5 -A 14 | head -n 20`;
  const already = request.messages.some((m) =>
    m.content.some((b) => b.type === 'tool_use' && (b.input as Record<string, unknown> | undefined)?.command === command),
  );
  return already ? undefined : command;
}

export function retrievalTurn(upcoming: AssistantTurn, name: string, input: unknown): AssistantTurn {
  return { kind: 'assistant', index: upcoming.index, toolCalls: [{ name, input }] };
}
