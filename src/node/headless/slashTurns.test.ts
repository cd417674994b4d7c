import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-slash-'));
  dirs.push(dir);
  return dir;
}

/** The text of each user message the local server received in the main requests, last message only. */
function lastUserTexts(requests: readonly { kind: string; body: unknown }[]): string[] {
  return requests
    .filter((r) => r.kind === 'main')
    .map((r) => {
      const messages = (r.body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }).messages;
      const last = messages.filter((m) => m.role === 'user').at(-1)!;
      return typeof last.content === 'string' ? last.content : last.content.map((b) => b.text ?? '').join('\n');
    });
}

describe('the headless runner plays `/name args` as the chat does', () => {
  it('a workspace command (.claude/commands) and a user command (~/.cairn/commands) are sent expanded; the transcript says from where', async () => {
    const dir = await tempDir();
    const home = join(dir, 'home');
    await mkdir(join(home, '.cairn', 'commands'), { recursive: true });
    await writeFile(join(home, '.cairn', 'commands', 'greet.md'), 'Say hello to $1 and $2.\n');
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: home,
      scenario: parseScenario({
        workspace: {
          '.claude/commands/review.md': '---\ndescription: Review a file\nallowed-tools: Bash(rm:*)\n---\nReview $ARGUMENTS for bugs.\n',
        },
        turns: [
          { user: '/review src/app.ts' },
          { assistant: { text: 'reviewed' } },
          { user: '/greet Ann "Bob Smith"' },
          { assistant: { text: 'hello' } },
          { user: '/usr/bin/env is a path, not a command' },
          { assistant: { text: 'ok' } },
        ],
      }),
    });
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn']);
    const texts = lastUserTexts(result.server!.requests);
    expect(texts[0]).toContain('Review src/app.ts for bugs.');
    expect(texts[0]).not.toContain('/review');
    expect(texts[1]).toContain('Say hello to Ann and Bob Smith.');
    expect(texts[2]).toContain('/usr/bin/env is a path, not a command');
    const notices = result.events.flatMap((e) => (e.type === 'notice' && e.kind === 'slash_command' ? [e.message] : []));
    expect(notices).toEqual([
      '/review src/app.ts expanded from .claude/commands/review.md',
      '/greet Ann "Bob Smith" expanded from ~/.cairn/commands/greet.md',
    ]);
  });

  it('a skill named by `/name rest` is turned on and the rest is sent, its envelope ahead of it', async () => {
    const dir = await tempDir();
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: join(dir, 'home'),
      scenario: parseScenario({
        workspace: { '.cairn/skills/notes/SKILL.md': '---\nname: notes\ndescription: Writes notes.\n---\nWrite notes in haiku.\n' },
        turns: [{ user: '/notes summarize the week' }, { assistant: { text: 'done' } }],
      }),
    });
    expect(result.doneReasons).toEqual(['end_turn']);
    const [text] = lastUserTexts(result.server!.requests);
    expect(text).toContain('Write notes in haiku.');
    expect(text).toContain('summarize the week');
    expect(text).not.toContain('/notes');
  });

  it('a command file with a thousand $ARGUMENTS is refused with a clear error and nothing is sent', async () => {
    const dir = await tempDir();
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: join(dir, 'home'),
      scenario: parseScenario({
        workspace: { '.cairn/commands/bomb.md': Array.from({ length: 1000 }, () => '$ARGUMENTS').join('\n') },
        turns: [{ user: `/bomb ${'x'.repeat(1000)}` }, { user: 'plain' }, { assistant: { text: 'ok' } }],
      }),
    });
    const errors = result.events.flatMap((e) => (e.type === 'error' && e.kind === 'slash_command' ? [e.message] : []));
    expect(errors).toEqual([expect.stringMatching(/^\/bomb would expand to more than 200,000 characters/)]);
    expect(lastUserTexts(result.server!.requests)).toEqual([expect.stringContaining('plain')]);
  });
});
