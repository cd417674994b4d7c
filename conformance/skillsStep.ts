import { Composer } from '../src/core/compose/composer';
import { DecisionQueue } from '../src/core/compose/decisions';
import { selectPacks, type Pack } from '../src/core/compose/packs';
import { emptyProjectContext } from '../src/core/compose/projectContextSource';
import { noRules } from '../src/core/compose/rules';
import { Conversation, type ConversationEntry } from '../src/core/conversation/conversation';
import { ExternalToolSet } from '../src/core/ledger/externalToolSet';
import { durableStateBlock, recentToolCalls } from '../src/core/memory/durableState';
import { generationCarryOver } from '../src/core/memory/generationCarryOver';
import { TodoTool } from '../src/core/memory/todo';
import { WorkingMemory } from '../src/core/memory/workingMemory';
import type { TextBlock, UserBlock } from '../src/core/model/types';
import { catalogBudgetTokens, catalogPack } from '../src/core/skills/catalog';
import { foldSkillEnvelopes } from '../src/core/skills/envelope';
import { FileSkillSource } from '../src/node/fileSkillSource';
import { SessionSkills } from '../src/core/skills/sessionSkills';
import { SkillTool } from '../src/core/skills/skillTool';
import { TOOL_DEFINITIONS } from '../src/core/tools/definitions';

/**
 * The skills, packs and working-memory steps of a case (issue 18), through the real parts: skills found
 * on disk in the case's folder (`FileSkillSource`, the workspace trusted), `SessionSkills` folding the
 * case's own conversation, the composer's catalog and its deltas, compaction's carry-over, the pack
 * builder and the durable state block. The `skill` and `todo` tools run through the case's ledger.
 */
export class CaseSkills {
  readonly notices: string[] = [];
  private conversation = new Conversation();
  private readonly memory = new WorkingMemory();
  private readonly skills: SessionSkills;
  private readonly composer: Composer;

  private constructor(
    private readonly root: string,
    windowTokens: number,
  ) {
    const decisions = new DecisionQueue();
    this.skills = new SessionSkills({
      source: new FileSkillSource({ homeDir: `${root}/.home`, roots: [root], trusted: () => true }),
      decisions,
      entries: () => this.conversation.all(),
      notice: (_level, _kind, message) => this.notices.push(message),
    });
    this.composer = new Composer({
      tools: TOOL_DEFINITIONS,
      preamble: 'Conformance preamble.',
      rules: noRules,
      projectContext: emptyProjectContext,
      sessionDate: '2026-01-01',
      decisions,
      skillsCatalog: async () => ({
        pack: catalogPack((await this.skills.discover()).skills),
        budgetTokens: catalogBudgetTokens(windowTokens),
      }),
    });
  }

  /** The catalog is read when the case starts, as a session's static part is. */
  static async create(root: string, windowTokens = 200_000): Promise<CaseSkills> {
    const made = new CaseSkills(root, windowTokens);
    await made.composer.prepare();
    return made;
  }

  /** The tools the ledger runs for this case besides the built-in ones. */
  tools(): ExternalToolSet {
    return new ExternalToolSet([new SkillTool(this.skills), new TodoTool(this.memory)]);
  }

  /** The system part's catalog block as the session's static part holds it ('' when none). */
  catalog(): string {
    return this.composer
      .staticPrefix()
      .system.slice(1)
      .map((b) => b.text)
      .join('\n');
  }

  /** Toggles, in the chat's order: offs first, then ons. The step's text is every refusal, one a line. */
  async toggle(enable: readonly string[], disable: readonly string[]): Promise<string> {
    const out: string[] = [];
    for (const name of disable) {
      const done = this.skills.disable(name);
      if (!done.ok) out.push(done.message);
    }
    for (const name of enable) {
      const done = await this.skills.enable(name);
      if (!done.ok) out.push(done.message);
    }
    return out.join('\n');
  }

  /**
   * A user message as the loop builds it: the catalog's delta, the skills' envelopes, then the text; the
   * model answers "ok". The step's text is the message's blocks, one after another, separated by a blank line.
   */
  async user(text: string): Promise<string> {
    const lead: TextBlock[] = [...(await this.composer.catalogDelta()), ...(await this.skills.attachments())];
    const entry = this.conversation.appendUser([...lead, { type: 'text', text }], { syntheticBlocks: lead.map((_, i) => i) });
    this.conversation.markSent();
    this.conversation.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    this.memory.noteTurn();
    return blockTexts(entry.message.content as UserBlock[]);
  }

  /** A call the case's ledger ran, as the model's message and its result, so the durable state sees it. */
  recordCall(call: { callId: string; name: string; input: unknown }, resultText: string): void {
    this.conversation.appendAssistant({
      role: 'assistant',
      content: [{ type: 'tool_use', id: call.callId, name: call.name, input: call.input }],
    });
    this.conversation.appendUser([{ type: 'tool_result', tool_use_id: call.callId, content: resultText }]);
  }

  /** The effective set after the case's messages so far: `name (N bytes)` per skill, in activation order. */
  active(): string {
    return [...this.skills.effective()].map(([name, body]) => `${name} (${Buffer.byteLength(body)} bytes)`).join('\n');
  }

  /**
   * What a compaction keeping the last `keep` messages carries: the new first message's Cairn blocks and
   * the kept messages as they are retained, each message's blocks separated by a blank line and
   * messages by a line `---`. The case's conversation becomes that new generation.
   */
  compact(keep: number): string {
    const entries = this.conversation.all();
    const carried = generationCarryOver(this.memory, this.root, entries, entries.slice(Math.max(0, entries.length - keep)));
    const lead = [...carried.blocks];
    const [first, ...rest] = carried.tail;
    // As the compactor does: the opening joins the first kept message when that is the user's.
    const opening: ConversationEntry =
      first?.message.role === 'user'
        ? {
            message: { role: 'user', content: [...lead, ...first.message.content] },
            syntheticBlocks: [...lead.keys(), ...(first.syntheticBlocks ?? []).map((i) => i + lead.length)],
          }
        : { message: { role: 'user', content: lead }, synthetic: true };
    const entries2 = first?.message.role === 'user' ? [opening, ...rest] : [opening, ...carried.tail];
    this.conversation = new Conversation(entries2);
    return entries2.map((e) => blockTexts(e.message.content as UserBlock[])).join('\n---\n');
  }

  /** The durable state block as the next compaction would carry it. */
  state(): string {
    return durableStateBlock({
      turns: this.memory.turns,
      todo: this.memory.todo,
      recentToolCalls: recentToolCalls(this.conversation.all(), this.root),
    }).text;
  }
}

function blockTexts(blocks: readonly UserBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n\n');
}

/** The pack builder's choices as text: `label: variant tokens/fullTokens` a line, then each text sent under a `== label` line. */
export function packsText(packs: readonly Pack[], tokens: number, maxChars: number | undefined): string {
  const choices = selectPacks(packs, { tokens, ...(maxChars !== undefined ? { maxChars } : {}) });
  const lines = choices.map((c) => `${c.label}: ${c.variant} ${c.tokens}/${c.fullTokens}`);
  const texts = choices.filter((c) => c.text.length > 0).map((c) => `== ${c.label}\n${c.text}`);
  return [...lines, ...texts].join('\n');
}

/** The effective set folded from raw message texts (the parsing rules, malformed envelopes included). */
export function foldText(texts: readonly string[]): string {
  return [...foldSkillEnvelopes(texts)].map(([name, body]) => `${name}: ${JSON.stringify(body)}`).join('\n');
}
