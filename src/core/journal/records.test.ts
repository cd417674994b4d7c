import { describe, expect, it } from 'vitest';
import type { ToolResultRecord } from './records';
import { HEAD_PARSE_MIN_BYTES, parseRecordLine, parseToolResultHead } from './recordShape';
import { headOf, serialiseRecord } from './records';

function bigResult(body: string, input: unknown = { command: 'x' }): ToolResultRecord {
  return {
    type: 'tool_result',
    seq: 7,
    at: 123,
    callId: 'toolu_9',
    ledgerState: { reads: [{ path: 'a', body: 'not the body' }] },
    result: { id: '#abcd', tool: 'bash', input, bracket: '[#abcd]', body, kind: 'capped' },
  };
}

describe('tool_result lines', () => {
  it('put type, seq and at first, and the body last after its length', () => {
    const line = serialiseRecord(bigResult('b'));
    expect(line.startsWith('{"type":"tool_result","seq":7,"at":123,')).toBe(true);
    expect(
      line.endsWith(
        ',"bodyChars":1,"result":{"id":"#abcd","tool":"bash","input":{"command":"x"},"bracket":"[#abcd]","kind":"capped","body":"b"}}',
      ),
    ).toBe(true);
  });

  it('are read without their body, with the same head as a full parse, whatever the body and input hold', () => {
    const tricky = `${'x'.repeat(HEAD_PARSE_MIN_BYTES)},"body":"fake"}} \\ "quoted" \n line é ✓ \u2028 "}}\\`;
    const record = bigResult(tricky, { path: 'f', body: 'an input field named body', nested: { body: '"}}' } });
    const bytes = Buffer.from(serialiseRecord(record));
    const head = parseToolResultHead(bytes);
    expect(head).toBeDefined();
    const full = parseRecordLine(bytes.toString('utf8'));
    expect(full.known && headOf(full.record as ToolResultRecord)).toEqual(headOf(head!));
    expect(headOf(head!)).toMatchObject({ result: { id: '#abcd', bodyChars: tricky.length, input: record.result.input } });
    expect((full.known && (full.record as ToolResultRecord).result.body) === tricky).toBe(true);
  });

  it('are parsed whole when small, damaged at the end, or written without a length', () => {
    expect(parseToolResultHead(Buffer.from(serialiseRecord(bigResult('small'))))).toBeUndefined();
    const big = serialiseRecord(bigResult('y'.repeat(HEAD_PARSE_MIN_BYTES)));
    expect(parseToolResultHead(Buffer.from(big.slice(0, -1)))).toBeUndefined();
    expect(parseToolResultHead(Buffer.from(big.replace(/,"bodyChars":\d+/, '')))).toBeUndefined();
    expect(parseToolResultHead(Buffer.from(big.replace('"seq":7', '"seq":"7"')))).toBeUndefined();
  });
});

describe('tool results stored as references', () => {
  const stub: ToolResultRecord = {
    type: 'tool_result',
    seq: 3,
    at: 1,
    result: {
      id: '#ab02',
      tool: 'read',
      input: {},
      bracket: '[#ab02]',
      body: '',
      kind: 'read-stub',
      bodyRef: { id: '#ab01', from: 2, to: 9, chars: 77 },
    },
  };

  it('writes the length of the text a reference stands for, and heads carry that length without the reference', () => {
    const line = serialiseRecord(stub);
    expect(JSON.parse(line)).toMatchObject({ bodyChars: 77, result: { body: '', bodyRef: { id: '#ab01', from: 2, to: 9, chars: 77 } } });
    const parsed = parseRecordLine(line);
    expect(parsed.known && headOf(parsed.record as ToolResultRecord)).toEqual({
      type: 'tool_result',
      seq: 3,
      at: 1,
      result: { id: '#ab02', tool: 'read', input: {}, bracket: '[#ab02]', kind: 'read-stub', bodyChars: 77 },
    });
  });

  it('refuses a damaged reference', () => {
    const line = serialiseRecord(stub);
    expect(() => parseRecordLine(line.replace('"from":2', '"from":-1'))).toThrow(/no valid line range/);
    expect(() => parseRecordLine(line.replace('"id":"#ab01"', '"id":"ab01"'))).toThrow(/names no result id/);
  });
});

describe('run_failed records', () => {
  it('are read back as written, and one without its kind or message is refused', () => {
    const line = serialiseRecord({ type: 'run_failed', seq: 4, at: 1, kind: 'overloaded', message: 'Overloaded.', advice: 'Try later.' });
    expect(parseRecordLine(line)).toEqual({
      known: true,
      record: { type: 'run_failed', seq: 4, at: 1, kind: 'overloaded', message: 'Overloaded.', advice: 'Try later.' },
    });
    expect(() => parseRecordLine(line.replace('"kind":"overloaded",', ''))).toThrow(/run_failed without kind or message/);
    expect(() => parseRecordLine(line.replace('"Try later."', '3'))).toThrow(/advice that is not text/);
  });
});
