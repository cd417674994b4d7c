import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSessionMarkdown } from './exportMarkdown';
import { SessionJournal } from './sessionJournal';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-export-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const readResult = '[#a3f2 src/app.ts lines 1-3 of 3 sha 1c9e04ab]\n1: const a = "```";\n2: <b>bold</b>\n3: end';

async function sampleSession(): Promise<SessionJournal> {
  const journal = await SessionJournal.create(dir, { workspace: '/home/me/project', model: 'claude-sonnet', sessionId: 'exp' });
  await journal.append({
    type: 'user_message',
    generation: 0,
    index: 0,
    message: { role: 'user', content: [{ type: 'text', text: 'What does app.ts do?' }] },
  });
  await journal.append({
    type: 'assistant_message',
    generation: 0,
    index: 1,
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read it first.', signature: 'sig' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'src/app.ts' } },
        { type: 'tool_use', id: 'toolu_2', name: 'write', input: { path: 'big.txt', content: 'z'.repeat(500) } },
      ],
    },
  });
  await journal.put({
    id: '#a3f2',
    callId: 'toolu_1',
    tool: 'read',
    input: { path: 'src/app.ts' },
    bracket: '[#a3f2 …]',
    body: 'full body',
    kind: 'full',
  });
  await journal.append({
    type: 'user_message',
    generation: 0,
    index: 2,
    message: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: readResult },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '[#b001] The user declined: not now', is_error: true },
      ],
    },
  });
  await journal.append({
    type: 'assistant_message',
    generation: 0,
    index: 3,
    incomplete: true,
    message: { role: 'assistant', content: [{ type: 'text', text: 'It defines a' }] },
  });
  await journal.append({ type: 'notice', level: 'warning', kind: 'stream_cut', message: 'The response was cut off.' });
  await journal.append({ type: 'run_failed', kind: 'overloaded', message: 'The server is overloaded (529).', advice: 'Try again later.' });
  await journal.append({ type: 'generation_started', generation: 1, detail: { summary: 'We read app.ts.', retained: [2, 3] } });
  await journal.append({
    type: 'user_message',
    generation: 1,
    index: 0,
    synthetic: true,
    message: { role: 'user', content: [{ type: 'text', text: 'Summary of earlier work.' }] },
  });
  return journal;
}

describe('exportSessionMarkdown', () => {
  it('writes the conversation as Markdown and the raw journal beside it', async () => {
    const journal = await sampleSession();
    const out = join(dir, 'out');
    const { markdownPath, jsonlPath } = await exportSessionMarkdown(journal, out);
    expect(await fs.readFile(jsonlPath, 'utf8')).toBe(await fs.readFile(journal.path, 'utf8'));
    const md = await fs.readFile(markdownPath, 'utf8');
    await journal.close();

    expect(md.startsWith('# What does app.ts do?\n')).toBe(true);
    expect(md).toContain('- Workspace: `/home/me/project`');
    expect(md).toContain('## User\n\nWhat does app.ts do?');
    expect(md).toContain('## Assistant');
    expect(md).toContain('<details><summary>Thinking</summary>');
    // The call, its bracket, and the result as the model saw it in a fence its backticks cannot close.
    expect(md).toContain('**Tool `read`** `{"path":"src/app.ts"}` → `[#a3f2 src/app.ts lines 1-3 of 3 sha 1c9e04ab]`');
    expect(md).toContain('<summary>Result as the model saw it: [#a3f2 src/app.ts lines 1-3 of 3 sha 1c9e04ab]</summary>');
    expect(md).toContain(`\`\`\`\`\n${readResult}\n\`\`\`\``);
    expect(md).toContain('→ `[#b001] The user declined: not now` (error)');
    // A long input is shortened on the line and shown whole in the block.
    expect(md).toMatch(/\*\*Tool `write`\*\* `\{"path":"big.txt","content":"z+…`/);
    expect(md).toContain('```json\n{\n  "path": "big.txt",');
    expect(md).toContain('It defines a\n\n_The response was interrupted here');
    expect(md).toContain('> **Notice (warning, stream_cut):** The response was cut off.');
    expect(md).toContain('> **The run failed (overloaded):** The server is overloaded (529). Try again later.');
    expect(md).toContain('## Compacted: generation 1 begins');
    expect(md).toContain('<details><summary>Summary</summary>\n\nWe read app.ts.');
    expect(md).toContain('## Cairn (on the user’s side)\n\nSummary of earlier work.');
    // The stored full body is not what the model saw, so it is not in the Markdown.
    expect(md).not.toContain('full body');
  });

  it('shows a trailing user message that grew once, where it first stood', async () => {
    const journal = await SessionJournal.create(dir, { workspace: '/w', model: 'm', sessionId: 'grow' });
    await journal.append({
      type: 'user_message',
      generation: 0,
      index: 0,
      message: { role: 'user', content: [{ type: 'text', text: 'one' }] },
    });
    await journal.append({ type: 'notice', level: 'info', kind: 'k', message: 'between' });
    await journal.append({
      type: 'user_message',
      generation: 0,
      index: 0,
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    });
    const { markdownPath } = await exportSessionMarkdown(journal, dir);
    await journal.close();
    const md = await fs.readFile(markdownPath, 'utf8');
    expect(md.match(/## User/g)).toHaveLength(1);
    expect(md.indexOf('one\n\ntwo')).toBeLessThan(md.indexOf('between'));
  });
});
