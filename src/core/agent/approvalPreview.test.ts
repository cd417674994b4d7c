import { describe, expect, it } from 'vitest';
import { describeForApproval } from './approvalDetail';
import { changePreview } from './approvalPreview';

describe('the approval prompt previews the change', () => {
  it('shows an edit as its old lines removed and new lines added', () => {
    expect(changePreview('edit', { path: 'a.ts', old_string: 'const a = 1;\nconst b = 2;', new_string: 'const a = 3;' })).toBe(
      '@@ edit @@\n-const a = 1;\n-const b = 2;\n+const a = 3;',
    );
    expect(describeForApproval('edit', { path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true }).preview).toBe(
      '@@ edit (every occurrence) @@\n-x\n+y',
    );
  });

  it('numbers the edits of a multiedit, shows a write as its whole new content, and a patch as its hunks', () => {
    const edits = [
      { old_string: 'a', new_string: 'b' },
      { old_string: 'c', new_string: '' },
    ];
    expect(changePreview('multiedit', { path: 'a.ts', edits })).toBe('@@ edit 1 of 2 @@\n-a\n+b\n@@ edit 2 of 2 @@\n-c');
    expect(changePreview('write', { path: 'n.txt', content: 'one\ntwo\n' })).toBe('@@ the whole new content @@\n+one\n+two');
    const patch = ['*** Begin Patch', '*** Update File: a.ts', '@@', ' keep', '-old', '+new', '*** End Patch'].join('\n');
    expect(changePreview('apply_patch', { patch })).toBe('*** Update File: a.ts\n@@\n keep\n-old\n+new');
  });

  it('previews nothing for tools that change no file, inputs without the fields, or calls that will be refused', () => {
    expect(changePreview('bash', { command: 'ls' })).toBeUndefined();
    expect(changePreview('edit', { path: 'a.ts' })).toBeUndefined();
    expect(describeForApproval('edit', { path: 'a\u202e.ts', old_string: 'x', new_string: 'y' }).preview).toBeUndefined();
  });
});
