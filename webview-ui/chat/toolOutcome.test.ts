import { describe, expect, it } from 'vitest';
import { announcementFor } from './announcements';
import { formatDuration, outcomeParts, toolArgument } from './toolOutcome';

describe('the tool line', () => {
  it('drops the tool name the summary starts with, and only that', () => {
    expect(toolArgument('grep', 'grep average in src')).toBe('average in src');
    expect(toolArgument('bash', 'bash')).toBe('');
    expect(toolArgument('mcp__fs__read', 'fs read {"path":"a"}')).toBe('fs read {"path":"a"}');
  });

  it('says how a call went, in words a screen reader reads well', () => {
    expect(outcomeParts({ exitCode: 1, durationMs: 2345 })).toEqual([
      { text: 'exit 1', tone: 'fail', spoken: 'exit code 1' },
      { text: '2.3 s', tone: 'quiet', spoken: 'took 2.3 s' },
    ]);
    expect(outcomeParts({ exitCode: 0 })[0]?.tone).toBe('ok');
    expect(outcomeParts({ timedOut: true }).map((p) => p.text)).toEqual(['timed out']);
    expect(outcomeParts({ matches: 1 }).map((p) => p.text)).toEqual(['1 match']);
    expect(outcomeParts({ matches: 0 }).map((p) => p.text)).toEqual(['no matches']);
    expect(outcomeParts({ added: 1, removed: 0 }).map((p) => p.spoken)).toEqual(['1 line added', '0 lines removed']);
    expect(outcomeParts(undefined)).toEqual([]);
    expect([formatDuration(850), formatDuration(12_400), formatDuration(125_000)]).toEqual(['850 ms', '12 s', '2 min 5 s']);
  });

  it('announces an answer by its opening words, an approval with its shortcut, the end of a run', () => {
    const turns = [{ index: 2, items: [{ type: 'assistant' as const, text: 'Done:\n\nthe **tests** pass.' }] }];
    expect(announcementFor({ type: 'assistantDone', turn: 2, incomplete: false }, turns)).toBe('Cairn answered: Done: the **tests** pass.');
    expect(announcementFor({ type: 'approvalRequested', turn: 2, callId: 'c', tool: 'bash', summary: 'bash ls' }, turns)).toBe(
      'Cairn asks to run bash ls. Press Alt+A to answer.',
    );
    expect(announcementFor({ type: 'busy', busy: false }, turns)).toBe('Cairn is done.');
    expect(announcementFor({ type: 'busy', busy: true }, turns)).toBeUndefined();
  });
});
