import { describe, expect, it } from 'vitest';
import { resultOutcomeOf } from './resultOutcome';

const result = (tool: string, text: string, kind = 'full', isError = false) => ({ tool, kind, text, isError });

describe('the outcome on a tool line', () => {
  it("gives a command's exit code from its status line (0 when there is none), and the duration when measured", () => {
    expect(resultOutcomeOf(result('bash', '[#c9d0]\n1 failed\n[exit code 1]'), 2345.6)).toEqual({ exitCode: 1, durationMs: 2346 });
    expect(resultOutcomeOf(result('bash', '[#c9d0]\nall passed'))).toEqual({ exitCode: 0 });
    expect(resultOutcomeOf(result('bash', '[#c9d0]\n(no output)\n[timed out after 1000 ms]'))).toEqual({ timedOut: true });
    expect(resultOutcomeOf(result('bash', '[#c9d0]\nx\n[ended by a signal]'))).toEqual({ exitCode: null });
    expect(resultOutcomeOf(result('bash', '[#c9d0] The command could not be started: ENOENT', 'error', true))).toEqual({});
  });

  it("counts a search's matches, the elided ones of a capped answer too, and not its notes", () => {
    expect(resultOutcomeOf(result('grep', '[#b711]\nsrc/a.ts:1: x\nsrc/b.ts:4: y'))).toEqual({ matches: 2 });
    expect(resultOutcomeOf(result('grep', '[#b711]\n(no matches)\n(not searched: big.bin: binary)'))).toEqual({ matches: 0 });
    expect(resultOutcomeOf(result('grep', '[#b711]\na:1: x\n[40 lines elided, full output #b711]\nb:2: y', 'capped'))).toEqual({
      matches: 42,
    });
  });

  it("counts an edit's added and removed lines, a created file's lines, over every file of a patch", () => {
    expect(resultOutcomeOf(result('edit', '[#d1 a.ts sha 12345678]\n@@ -1,2 +1,2 @@\n-a\n+b\n+c\n keep', 'diff'))).toEqual({
      added: 2,
      removed: 1,
    });
    const patch = '[#d2]\n[a.ts sha 1234] \n@@ -1 +1 @@\n-x\n+y\n[n.txt sha 9999] Created, 5 lines.\n[old.txt deleted]';
    expect(resultOutcomeOf(result('apply_patch', patch, 'diff'))).toEqual({ added: 6, removed: 1 });
  });

  it('takes a lean edit answer’s counts from its sentence, not from the few lines it keeps', () => {
    const lean =
      '[#d3 a.ts sha 12345678] Applied as you wrote it, +3 −2 lines; where it landed below (context and your own lines left out, recall #d3 shows the diff).\n@@ -4,6 +4,7 @@\n-kept because the tool changed it\n+so';
    expect(resultOutcomeOf(result('edit', lean, 'diff'))).toEqual({ added: 3, removed: 2 });
  });

  it('adds nothing to a stub or a same-result (their line says what they stand for) or a read', () => {
    expect(resultOutcomeOf(result('read', '[#b710 a.ts lines 1-2 of 2 sha 1] Unchanged since #a3f2.', 'read-stub'))).toBeUndefined();
    expect(resultOutcomeOf(result('grep', '[#b712] Same result as #b711.', 'same-result'))).toBeUndefined();
    expect(resultOutcomeOf(result('read', '[#a3f2 a.ts lines 1-2 of 2 sha 1]\n1: x'))).toBeUndefined();
  });
});
