import { expect, it } from 'vitest';
import { mentionCandidates } from './mentionCandidates';

it('completes files and the folders that hold them, shortest first, by what was typed', () => {
  const files = ['src/app.ts', 'src/lib/util.ts', 'README.md', 'test/app.test.ts'];
  expect(mentionCandidates(files, 'src')).toEqual(['src/', 'src/lib/', 'src/app.ts', 'src/lib/util.ts']);
  expect(mentionCandidates(files, 'APP')).toEqual(['src/app.ts', 'test/app.test.ts']);
  expect(mentionCandidates(files, '', 3)).toEqual(['src/', 'test/', 'src/lib/']);
});
