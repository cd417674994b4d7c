import { describe, expect, it } from 'vitest';
import { joinedLines, storedTextOfJoined } from '../text/lines';
import { OutputSpill } from './outputSpill';

describe('OutputSpill', () => {
  it('stores exactly what storing the whole output at once would, for any chunking and ending', async () => {
    const endings = ['', '\n', '\n\n', 'x', '\n\nx\n'];
    for (const ending of endings) {
      for (const status of [undefined, '[exit code 1]']) {
        const output = `${'abc\n'.repeat(40)}tail${ending}`;
        for (const chunk of [1, 3, 7, 50]) {
          const parts: string[] = [];
          const spill = new OutputSpill('#1', { putBodyPart: async (_id, part, text) => void (parts[part] = text) }, 16);
          for (let at = 0; at < output.length; at += chunk) await spill.add(output.slice(at, at + chunk));
          const done = await spill.finish(status);
          const whole = storedTextOfJoined(status === undefined ? joinedLines(output) : `${joinedLines(output)}\n${status}`);
          expect(done).toBeDefined();
          expect(parts.join('') + done!.rest).toBe(whole);
          expect(done!.parts).toEqual({ count: parts.length, chars: parts.join('').length });
        }
      }
    }
  });

  it('writes nothing for an output shorter than a part', async () => {
    const spill = new OutputSpill('#1', { putBodyPart: async () => expect.unreachable() }, 100);
    spill.add('short\n');
    expect(await spill.finish(undefined)).toBeUndefined();
  });
});
