import { describe, expect, it } from 'vitest';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn } from '../../src/node/scenario/types';
import { claudeCodeRetrieval } from './claudeCode';
import { missingNeeds, needsGate, needsOf, retrievalTurn, windowAround } from './needs';
import { opencodeRetrieval } from './opencode';

const step: AssistantTurn = { kind: 'assistant', index: 4, text: 'Line 500 says so.', toolCalls: [] };

function request(resultText: string): WireRequest {
  return {
    model: 'm',
    stream: false,
    system: [{ type: 'text', text: 'system' }],
    tools: [],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'x' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: resultText }] }] },
    ],
    messageSettings: {},
  };
}

describe('x-needs', () => {
  it('reads the needs beside each turn, and refuses a malformed list', () => {
    const needs = needsOf({ turns: [{ user: 'a' }, { assistant: { text: 'b' }, 'x-needs': ['one', 'two'] }] }, 's.json');
    expect([...needs]).toEqual([[1, ['one', 'two']]]);
    expect(() => needsOf({ turns: [{ assistant: { text: 'b' }, 'x-needs': 'one' }] }, 's.json')).toThrow(/turns\[0\]\.x-needs/);
  });

  it('finds what a request shows the model, tool results included', () => {
    expect(missingNeeds(request('line 1\n[998 lines elided, full output #ab12]\nline 1000'), ['line 1000', 'line 500'])).toEqual([
      'line 500',
    ]);
  });

  it("sees a need shown inside JSON (cline's tool results), escaped", () => {
    const need = "+   'iota  epsilon 7\\n'";
    expect(missingNeeds(request(JSON.stringify([{ query: 'node --test', result: `x\n${need}\ny` }])), [need])).toEqual([]);
    expect(missingNeeds(request('nothing'), [need])).toEqual([need]);
  });

  it('serves the retrieval first while a need is missing, then the step', async () => {
    const served: string[] = [];
    const gate = needsGate(
      new Map([[4, ['line 500']]]),
      (need, _r, upcoming) => {
        served.push(need);
        return retrievalTurn(upcoming, 'recall', { id: '#ab12', offset: 495, limit: 20 });
      },
      () => undefined,
    );
    const first = await gate.hook!(request('[998 lines elided, full output #ab12]'), step);
    expect(first?.toolCalls).toEqual([{ name: 'recall', input: { id: '#ab12', offset: 495, limit: 20 } }]);
    expect(await gate.hook!(request('line 500'), step)).toBeUndefined();
    expect(served).toEqual(['line 500']);
    expect(gate.report.unmet).toEqual([]);
  });

  it('reports a need no retrieval can find, and serves the step rather than looping', async () => {
    const notices: string[] = [];
    const gate = needsGate(
      new Map([[4, ['line 500']]]),
      () => undefined,
      (m) => notices.push(m),
    );
    expect(await gate.hook!(request('nothing'), step)).toBeUndefined();
    expect(gate.report.unmet).toEqual(['turn 4: line 500']);
    expect(notices[0]).toMatch(/served without "line 500"/);
  });

  it('gives up after a few retrievals that do not show the need', async () => {
    const gate = needsGate(
      new Map([[4, ['line 500']]]),
      (_n, _r, upcoming) => retrievalTurn(upcoming, 'recall', { id: '#ab12' }),
      () => undefined,
    );
    for (let i = 0; i < 3; i++) expect(await gate.hook!(request('nothing'), step)).toBeDefined();
    expect(await gate.hook!(request('nothing'), step)).toBeUndefined();
    expect(gate.report.unmet).toHaveLength(1);
  });

  it('runs a command again, filtered, when a compaction summarised its output away (Claude Code, opencode)', async () => {
    const probe = (tool: string, text: string): WireRequest => {
      const r = request(text);
      return {
        ...r,
        messages: r.messages.map((m, i) =>
          i === 1 ? { ...m, content: [{ ...m.content[0]!, name: tool, input: { command: 'node -e probe' } }] } : m,
        ),
      };
    };
    const compacted = (): WireRequest => ({ ...request('Summary of the conversation so far.'), messages: [request('').messages[0]!] });
    for (const [tool, retrieve] of [
      ['Bash', claudeCodeRetrieval],
      ['bash', opencodeRetrieval],
    ] as const) {
      const gate = needsGate(new Map([[4, ['Not enough stack space']]]), retrieve, () => undefined);
      // The output was shown before the compaction, and is not in the request after it.
      expect(await gate.hook!(probe(tool, 'parens: SyntaxError: Not enough stack space (1:714)'), { ...step, index: 3 })).toBeUndefined();
      const served = await gate.hook!(compacted(), step);
      expect(served?.toolCalls[0]).toMatchObject({
        name: tool,
        input: { command: "(node -e probe) 2>&1 | grep -F -e 'Not enough stack space' -B 5 -A 14 | head -n 20" },
      });
      // An output never shown to the agent is not made up.
      const fresh = needsGate(new Map([[4, ['Not enough stack space']]]), retrieve, () => undefined);
      expect(await fresh.hook!(compacted(), step)).toBeUndefined();
      expect(fresh.report.unmet).toEqual(['turn 4: Not enough stack space']);
    }
  });

  it('windows the lines around a need', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(windowAround(text, 'line 500')).toEqual({ offset: 495, limit: 20 });
    expect(windowAround(text, 'line 2')).toEqual({ offset: 1, limit: 20 });
    expect(windowAround(text, 'absent')).toBeUndefined();
  });
});

describe("an agent's own compaction request", () => {
  it('is told apart from a step by its summary instruction', async () => {
    const { isCompactionRequest } = await import('./compactionRequest');
    const ask = (text: string): WireRequest => ({ ...request('x'), messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
    expect(isCompactionRequest(ask('Here is the conversation so far: … Provide a detailed summary for continuing the conversation.'))).toBe(
      true,
    );
    expect(isCompactionRequest(ask('Fix the failing tests.'))).toBe(false);
    expect(isCompactionRequest(request('x'))).toBe(false);
  });
});
