import { expect, it } from 'vitest';
import { transcriptLines } from './transcript';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

it('the headless transcript never carries a raw control character to the terminal', () => {
  const lines = [
    ...transcriptLines({
      type: 'assistant_message',
      incomplete: false,
      message: { role: 'assistant', content: [{ type: 'text', text: '3 FAILED\rall passed \u001b]0;title\u0007\u001b[2J' }] },
    }),
    ...transcriptLines({ type: 'user_message', text: 'hi\u001b[31m' }),
    ...transcriptLines({ type: 'notice', level: 'info', kind: 'k', message: 'a\u0008b' }),
  ];
  for (const line of lines) expect(line).not.toMatch(CONTROL);
  expect(lines).toContain('3 FAILED\u240dall passed ');
});
