import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CacheBreakDetector } from '../../src/core/compose/cacheBreak';
import { encodeRequest } from '../../src/core/compose/requestEncoding';
import type { ModelRequest } from '../../src/core/model/types';
import { runHeadless } from '../../src/node/headless/runner';
import { parseScenario } from '../../src/node/scenario/scenario';

/**
 * Issue 18 end to end through the headless runner (real loop, ledger, composer, journal, files and the
 * local server): a skill turned on and off, a skill added on disk mid-session (a catalog change), the
 * model's plan updated, a compaction and a resume. The cached prefix never changes: every main request
 * of a generation extends the previous one byte for byte, checked on the bodies the server logged.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
const todo = (status: string) => ({
  name: 'todo',
  input: {
    items: [
      { text: 'Read the changelog', status: 'done' },
      { text: 'Write the notes', status },
    ],
  },
});

const scenario = parseScenario({
  workspace: {
    '.cairn/skills/release-notes/SKILL.md': skill('release-notes', 'Writes release notes.', 'Group entries under Added and Fixed.\n'),
    'CHANGELOG.md': '- Added: metric output\n',
  },
  turns: [
    { skills: { enable: ['release-notes'] } },
    { user: 'Write the release notes.' },
    { assistant: { tool_calls: [todo('in_progress')] } },
    { assistant: { tool_calls: [{ name: 'read', input: { path: 'CHANGELOG.md' } }] } },
    { assistant: { tool_calls: [todo('done')] } },
    { assistant: { text: 'Added: metric output.' } },
    { fs: { write: { path: '.agents/skills/style/SKILL.md', content: skill('style', 'The house style.', 'Short lines.\n') } } },
    { skills: { enable: ['style'] } },
    { user: 'Also follow the style.' },
    { assistant: { tool_calls: [{ name: 'skill', input: { name: 'style' } }] } },
    { assistant: { tool_calls: [{ name: 'skill', input: { name: 'style' } }] } },
    { assistant: { text: 'Done.' } },
    { skills: { disable: ['style'] } },
    { user: 'Drop the style.' },
    { assistant: { tool_calls: [todo('pending')] } },
    { assistant: { text: 'Dropped.' } },
    { compact: {} },
    { summary: 'Release notes written; the style skill was dropped.' },
    { resume: {} },
    { skills: { disable: ['release-notes'] } },
    { user: 'Thanks.' },
    { assistant: { text: 'Bye.' } },
  ],
});

it('skills, the catalog and the plan change only user messages: zero cache breaks; compaction and resume keep the active set and the plan', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-skills-it-'));
  dirs.push(dir);
  const notices: string[] = [];
  const result = await runHeadless({
    workspaceDir: join(dir, 'ws'),
    outDir: join(dir, 'out'),
    homeDir: join(dir, 'home'),
    scenario,
    idSeed: 3,
    onNotice: (m) => notices.push(m),
  });
  expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn', 'end_turn']);
  expect(notices).toEqual([]);

  const mains = result.snapshots.filter((s) => s.purpose === 'main');
  expect(mains.map((s) => s.cacheBreak)).toEqual(mains.map(() => null));
  // The same check on what really went over the wire.
  const bodies = result.server!.requests.filter((r) => r.kind === 'main' && r.status === 200).map((r) => r.body as ModelRequest);
  expect(bodies.length).toBe(mains.length);
  const detector = new CacheBreakDetector();
  // A compaction starts a new generation (the one deliberate break); the snapshots say which request is in which.
  bodies.forEach((body, i) => expect(detector.observe(encodeRequest(body), mains[i]!.generation)).toBeNull());
  expect(new Set(mains.map((s) => s.generation))).toEqual(new Set([0, 1]));
  // The tools never change: skill and todo are offered from the first request, never an enum of skills.
  const toolLists = new Set(bodies.map((b) => JSON.stringify(b.tools.map((t) => ({ ...t, cache_control: undefined })))));
  expect(toolLists.size).toBe(1);
  const skillTool = bodies[0]!.tools.find((t) => t.name === 'skill')!;
  expect(JSON.stringify(skillTool.input_schema)).not.toContain('enum');

  const texts = bodies.map((b) =>
    b.messages.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((c) => ('text' in c ? c.text : '')))),
  );
  const firstTurn = texts[0]!;
  expect(firstTurn).toContain(
    '<cairn-skill name="release-notes" state="active" bytes="37">\nGroup entries under Added and Fixed.\n\n</cairn-skill>',
  );
  // The skill added on disk: a catalog delta, then its activation, ahead of the user's text.
  const second = texts.find((t) => t.includes('Also follow the style.'))!;
  const at = second.indexOf('Also follow the style.');
  expect(second[at - 2]).toMatch(/^<cairn-skills-catalog state="changed"/);
  expect(second[at - 1]).toMatch(/^<cairn-skill name="style" state="active"/);
  // The second unchanged activation by the model is answered "Same result as".
  const events = result.events;
  const sameResult = events.find((e) => e.type === 'tool_finished' && e.result.kind === 'same-result');
  expect(sameResult).toBeDefined();
  // The plan went to the views at each update.
  expect(events.filter((e) => e.type === 'todo').length).toBe(3);
  // Its tool line reads in words, not as its JSON argument (issue 34, item 12).
  const todoLines = events.flatMap((e) => (e.type === 'tool_started' && e.tool === 'todo' ? [e.summary] : []));
  expect(todoLines.slice(0, 2)).toEqual(['todo 1 of 2 done · now: Write the notes', 'todo 2 of 2 done']);

  // After compaction and resume: release-notes (active) re-injected, style (turned off) not; the plan carried.
  const last = texts[texts.length - 1]!;
  const opening = last.join('\n');
  expect(opening).toContain('<cairn-skill name="release-notes" state="active"');
  expect(opening).not.toContain('<cairn-skill name="style" state="active"');
  expect(opening).toContain('- [x] Read the changelog\n- [ ] Write the notes');
  // The resumed session knew release-notes was active: turning it off sent a deactivation.
  expect(last).toContain('<cairn-skill name="release-notes" state="inactive" bytes="0">\n\n</cairn-skill>');
}, 120_000);
