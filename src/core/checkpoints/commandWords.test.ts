import { describe, expect, it } from 'vitest';
import { pathWordsOf } from './commandWords';

describe('pathWordsOf', () => {
  it('takes the words that may be paths, quotes off, options, variables and globs left out', () => {
    expect(pathWordsOf(`rm -rf build "my file.txt" 'other one' $HOME/x *.log && cat notes.md > /tmp/out.txt`)).toEqual([
      'rm',
      'build',
      'my file.txt',
      'other one',
      'cat',
      'notes.md',
      '/tmp/out.txt',
    ]);
  });

  it('skips assignments and substitutions', () => {
    expect(pathWordsOf('FOO=1 sed -i s/a/b/ "$(ls)" data.csv')).toEqual(['sed', 's/a/b/', 'data.csv']);
  });
});
