import { describe, expect, it } from 'vitest';
import { parsePatch } from './patchParser';

describe('parsePatch', () => {
  it('reads add, delete and update with move, anchors and end-of-file', () => {
    const ops = parsePatch(
      [
        '*** Begin Patch',
        '*** Add File: new.txt',
        '+hello',
        '+',
        '*** Delete File: old.txt',
        '*** Update File: a.ts',
        '*** Move to: b.ts',
        '@@ function f() {',
        ' keep',
        '-old',
        '+new',
        '',
        '@@',
        '-last',
        '+LAST',
        '*** End of File',
        '*** End Patch',
      ].join('\n'),
    );
    expect(ops).toEqual([
      { type: 'add', path: 'new.txt', lines: ['hello', ''] },
      { type: 'delete', path: 'old.txt' },
      {
        type: 'update',
        path: 'a.ts',
        moveTo: 'b.ts',
        chunks: [
          { header: 'function f() {', oldLines: ['keep', 'old', ''], newLines: ['keep', 'new', ''], atEnd: false },
          { oldLines: ['last'], newLines: ['LAST'], atEnd: true },
        ],
      },
    ]);
  });

  it('accepts \\r\\n and blank lines around the envelope', () => {
    expect(parsePatch('\n*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n\n')).toEqual([{ type: 'delete', path: 'x' }]);
  });

  it('says what is wrong with a malformed patch', () => {
    expect(() => parsePatch('diff --git a b')).toThrow(/must start with "\*\*\* Begin Patch"/);
    expect(() => parsePatch('*** Begin Patch\n*** Delete File: x')).toThrow(/must end with "\*\*\* End Patch"/);
    expect(() => parsePatch('*** Begin Patch\n*** Add File: x\nno plus\n*** End Patch')).toThrow(
      /Line 3: every line of an added file must start with "\+"/,
    );
    expect(() => parsePatch('*** Begin Patch\n*** Update File: x\n*** End Patch')).toThrow(/has no hunks/);
    expect(() => parsePatch('*** Begin Patch\n*** Update File: x\n@@\n?bad\n*** End Patch')).toThrow(/must start with " ", "-" or "\+"/);
    expect(() => parsePatch('*** Begin Patch\n*** Frobnicate: x\n*** End Patch')).toThrow(/expected "\*\*\* Add File: "/);
    expect(() => parsePatch('*** Begin Patch\n*** End Patch')).toThrow(/changes no file/);
    expect(() => parsePatch('*** Begin Patch\n*** Add File:   \n*** End Patch')).toThrow(/needs a path/);
  });
});
