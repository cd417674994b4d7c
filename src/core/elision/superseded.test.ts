import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { elideEntries, elidedText } from './elide';
import { resultFacts } from './resultFacts';
import { supersededResults } from './superseded';

function superseded(g: GenerationBuilder): Record<string, string> {
  return Object.fromEntries(supersededResults(resultFacts(g.entries)));
}

describe('the superseded set', () => {
  it('a read is superseded by a later edit of its file, by a read showing other content, or by a full read showing its lines', () => {
    const g = new GenerationBuilder()
      .read('#a001', 'src/a.ts', 'aaaaaaaa')
      .edit('#a002', './src/a.ts')
      .read('#b001', 'src/b.ts', 'bbbbbbbb')
      .read('#b002', 'src/b.ts', 'cccccccc')
      .read('#c001', 'src/c.ts', 'dddddddd', 1, 2, 9)
      .read('#c002', 'src/c.ts', 'dddddddd', 1, 9, 9);
    expect(superseded(g)).toEqual({ '#a001': '#a002', '#b001': '#b002', '#c001': '#c002' });
  });

  it('a read of other lines of the same content supersedes nothing; the newest read of a file stays', () => {
    const g = new GenerationBuilder().read('#a001', 'src/a.ts', 'aaaaaaaa', 1, 5, 20).read('#a002', 'src/a.ts', 'aaaaaaaa', 6, 10, 20);
    expect(superseded(g)).toEqual({});
  });

  it('a stub target is kept while the stub is kept, and elided with it once both are superseded', () => {
    const kept = new GenerationBuilder().read('#a001', 'src/a.ts', 'aaaaaaaa').read('#a002', 'src/a.ts', 'aaaaaaaa', 1, 3, 3, '#a001');
    expect(superseded(kept)).toEqual({});
    const both = new GenerationBuilder()
      .read('#a001', 'src/a.ts', 'aaaaaaaa')
      .read('#a002', 'src/a.ts', 'aaaaaaaa', 1, 3, 3, '#a001')
      .edit('#a003', 'src/a.ts');
    expect(superseded(both)).toEqual({ '#a001': '#a003', '#a002': '#a003' });
  });

  it('a read superseded by a change but named by a later stub (the file changed back) stays', () => {
    const g = new GenerationBuilder()
      .read('#a001', 'src/a.ts', 'aaaaaaaa')
      .bash('#a002', 'git stash && git stash pop')
      .read('#a003', 'src/a.ts', 'eeeeeeee')
      .read('#a004', 'src/a.ts', 'aaaaaaaa', 1, 3, 3, '#a001');
    expect(superseded(g)).toEqual({ '#a003': '#a004' });
  });

  it('a command is superseded by the same command line run again, and only by that', () => {
    const g = new GenerationBuilder().bash('#b001', 'npm test').bash('#b002', 'npm test -- a').bash('#b003', 'npm test');
    expect(superseded(g)).toEqual({ '#b001': '#b003' });
  });

  it("an edit's diff is superseded once every file it shows is read in full later", () => {
    const partial = new GenerationBuilder().edit('#e001', 'src/a.ts').read('#e002', 'src/a.ts', 'aaaaaaaa', 1, 2, 3);
    expect(superseded(partial)).toEqual({});
    const full = new GenerationBuilder().edit('#e001', 'src/a.ts').read('#e002', 'src/a.ts', 'aaaaaaaa');
    expect(superseded(full)).toEqual({ '#e001': '#e002' });
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n*** Update File: b.ts\n*** Move to: c.ts\n@@\n-a\n+b\n*** End Patch';
    const twoFiles = new GenerationBuilder()
      .call('apply_patch', { patch }, '[#f001]\n[a.ts sha 1]\n@@ -1 +1 @@\n-a\n+b\n[c.ts sha 2] Moved from b.ts.')
      .read('#f002', 'a.ts', 'aaaaaaaa');
    expect(superseded(twoFiles)).toEqual({});
    twoFiles.read('#f003', 'c.ts', 'cccccccc');
    expect(superseded(twoFiles)).toEqual({ '#f001': '#f003' });
  });

  it('searches, their same-result answers, errors and "No change." edits are never superseded', () => {
    const g = new GenerationBuilder()
      .grep('#5001', 'x')
      .grep('#5002', 'x', '#5001')
      .call('read', { path: 'src/a.ts' }, '[#d001] File not found: src/a.ts', true)
      .call('edit', { path: 'src/a.ts' }, '[#d002 src/a.ts sha 00000000] No change.')
      .read('#d003', 'src/a.ts', 'aaaaaaaa')
      .read('#d004', 'src/a.ts', 'bbbbbbbb');
    expect(superseded(g)).toEqual({ '#d003': '#d004' });
  });
});

describe('eliding', () => {
  it('replaces each superseded result by its bracket and one line, and leaves every other entry the same object', () => {
    const g = new GenerationBuilder()
      .read('#a001', 'src/a.ts', 'aaaaaaaa')
      .read('#a002', 'src/a.ts', 'aaaaaaaa', 1, 3, 3, '#a001')
      .edit('#a003', 'src/a.ts')
      .bash('#b001', 'npm test');
    const facts = resultFacts(g.entries);
    const out = elideEntries(g.entries, facts, supersededResults(facts));
    expect(out.firstChangedEntry).toBe(2);
    expect(out.entries[0]).toBe(g.entries[0]);
    expect(out.entries[1]).toBe(g.entries[1]);
    const texts = out.entries.flatMap((e) => e.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])));
    expect(texts[0]).toBe('[#a001 src/a.ts lines 1-3 of 3 sha aaaaaaaa] Elided: superseded by #a003; recall #a001 shows it.');
    expect(texts[1]).toBe(elidedText('[#a002 src/a.ts lines 1-3 of 3 sha aaaaaaaa]', '#a002', '#a003'));
    expect(texts.slice(2)).toEqual(
      g.entries.slice(6).flatMap((e) => e.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : []))),
    );
    expect(out.elided.map((e) => e.id)).toEqual(['#a001', '#a002']);
    for (const kept of [3, 5, 6, 7, 8]) expect(out.entries[kept]).toBe(g.entries[kept]);
  });

  it('an elided result is never elided again', () => {
    const g = new GenerationBuilder().bash('#b001', 'npm test').bash('#b002', 'npm test');
    const facts = resultFacts(g.entries);
    const once = elideEntries(g.entries, facts, supersededResults(facts));
    const again = resultFacts(once.entries);
    expect(supersededResults(again)).toEqual(new Map());
  });
});
