import type { DecisionQueue } from '../compose/decisions';
import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';
import type { TextBlock } from '../model/types';
import { estimateTokensOfText } from './tokens';
import { capSkillBody, foldSkillEnvelopes, skillDeltaBlocks } from './envelope';
import type { SkillDiscovery, SkillSource } from './ports';
import { isSkillName, type SkillInfo } from './skill';

export interface SessionSkillsDeps {
  readonly source: SkillSource;
  readonly decisions: DecisionQueue;
  /** The current generation's entries: the effective set is folded from their Cairn-written blocks. */
  readonly entries: () => readonly ConversationEntry[];
  /** A notice the user sees (a cut body, a skill skipped as invalid). */
  readonly notice: (level: 'info' | 'warning', kind: string, message: string) => void;
}

/** A skill as the chat's list shows it. */
export interface SkillListing {
  readonly name: string;
  readonly description: string;
  readonly scope: SkillInfo['scope'];
  readonly file: string;
  readonly userInvocable: boolean;
  readonly modelInvocable: boolean;
  /** Active for the next message: already given to the model and not turned off, or turned on since. */
  readonly active: boolean;
}

export type SkillToggleResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * The session's skills (issue 18): what the user turned on or off since the last message, what the
 * model has (folded from the envelopes of the current generation, so a resume and a compaction's
 * re-injection restore it with no state of their own), and the envelopes the next user message carries.
 * A body is taken when the skill is turned on: editing SKILL.md later changes nothing the session was
 * given until it is turned on again.
 */
export class SessionSkills {
  /** The user's wanted set in order, when it differs from the effective set; null: no change asked. */
  private wanted: string[] | null = null;
  /** Bodies taken at activation, waiting for the next message. */
  private readonly taken = new Map<string, string>();
  /** Active skills turned on again: their new body replaces the one the model has. */
  private readonly reactivate = new Set<string>();
  private readonly reported = new Set<string>();
  private last: SkillDiscovery = { skills: [], problems: [] };

  constructor(private readonly deps: SessionSkillsDeps) {}

  /** Looks on disk again; invalid skills are reported once each (name, file, what is wrong). */
  async discover(): Promise<SkillDiscovery> {
    const found = await this.deps.source.discover();
    this.last = found;
    for (const problem of found.problems) {
      const key = `${problem.file}\n${problem.problem}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.deps.notice('warning', 'skill_invalid', `The skill ${problem.name} (${problem.file}) was skipped: ${problem.problem}`);
    }
    return found;
  }

  /** The skills the model has now, in activation order, with the bodies it was given. */
  effective(): Map<string, string> {
    return effectiveSkills(this.deps.entries());
  }

  /** The names active for the next message. */
  active(): string[] {
    return this.wanted ?? [...this.effective().keys()];
  }

  async list(): Promise<SkillListing[]> {
    const { skills } = await this.discover();
    const active = new Set(this.active());
    return skills.map((s) => ({
      name: s.name,
      description: s.description,
      scope: s.scope,
      file: s.file,
      userInvocable: s.userInvocable,
      modelInvocable: s.modelInvocable,
      active: active.has(s.name),
    }));
  }

  /** The user turns a skill on: its body is read now and goes out with the next message. */
  async enable(name: string): Promise<SkillToggleResult> {
    if (!isSkillName(name)) return { ok: false, message: `“${name}” is not a skill name (lowercase letters, digits and hyphens).` };
    const loaded = await this.deps.source.readBody(name);
    if (!loaded) {
      return {
        ok: false,
        message: `No skill named ${name} was found. Skills live in .cairn/skills/${name}/SKILL.md (or .agents, .claude, or under ~).`,
      };
    }
    if (!loaded.skill.userInvocable) return { ok: false, message: `The skill ${name} is for the model only (user-invocable: false).` };
    this.taken.set(name, this.capped(name, loaded.body));
    const wanted = this.active().filter((n) => n !== name);
    this.wanted = [...wanted, name];
    // Turned on again: the new body replaces the one the model has.
    if (this.effective().has(name)) this.reactivate.add(name);
    return { ok: true };
  }

  /** The user turns a skill off: a deactivation goes out with the next message. */
  disable(name: string): SkillToggleResult {
    const active = this.active();
    if (!active.includes(name)) return { ok: false, message: `The skill ${name} is not active.` };
    this.wanted = active.filter((n) => n !== name);
    this.taken.delete(name);
    this.reactivate.delete(name);
    return { ok: true };
  }

  /**
   * The envelopes for the next user message, deactivations first, then activations; [] when nothing
   * changed. What it returns is the model's from then on (the loop appends it before the user's text).
   */
  async attachments(): Promise<TextBlock[]> {
    if (this.wanted === null) return [];
    const current = this.effective();
    for (const name of this.reactivate) current.delete(name);
    const blocks = skillDeltaBlocks(current, this.wanted, this.taken);
    // A re-activation replaces the earlier body: the fold moves it to the end with the new text.
    for (const name of this.wanted) {
      const body = this.taken.get(name);
      if (body === undefined) continue;
      this.deps.decisions.add({
        kind: 'skill',
        detail: `skill ${name} activated by the user: ${Buffer.byteLength(body, 'utf8')} bytes, about ${estimateTokensOfText(body)} tokens`,
        resultIds: [],
      });
    }
    for (const name of current.keys()) {
      if (!this.wanted.includes(name))
        this.deps.decisions.add({ kind: 'skill', detail: `skill ${name} deactivated by the user`, resultIds: [] });
    }
    this.wanted = null;
    this.taken.clear();
    this.reactivate.clear();
    return blocks;
  }

  /** The `skill` tool: the body as the model's result (through the ledger), or why it cannot be had. */
  async forModel(name: unknown): Promise<{ text: string; isError: boolean }> {
    if (typeof name !== 'string' || !isSkillName(name)) {
      return { text: 'The skill tool needs {"name": "<skill name>"}: a name from the skills catalog.', isError: true };
    }
    const loaded = await this.deps.source.readBody(name);
    if (!loaded) return { text: `No skill named ${name} exists now. The skills catalog lists the ones available.`, isError: true };
    if (!loaded.skill.modelInvocable) {
      return { text: `The skill ${name} can only be activated by the user (disable-model-invocation).`, isError: true };
    }
    return { text: this.capped(name, loaded.body), isError: false };
  }

  private capped(name: string, body: string): string {
    const capped = capSkillBody(body);
    if (capped.truncated) {
      this.deps.notice(
        'warning',
        'skill_truncated',
        `The skill ${name} is ${capped.originalBytes} bytes; only its first 106496 bytes are given to the model. Shorten its SKILL.md or move detail into bundled files.`,
      );
    }
    return capped.text;
  }
}

/** The effective set of a generation: the fold of the Cairn-written envelopes in its user messages, in order. */
export function effectiveSkills(entries: readonly ConversationEntry[]): Map<string, string> {
  return foldSkillEnvelopes(cairnTexts(entries));
}

function* cairnTexts(entries: readonly ConversationEntry[]): Generator<string> {
  for (const entry of entries) {
    if (entry.message.role !== 'user') continue;
    const content = entry.message.content;
    for (let i = 0; i < content.length; i++) {
      const block = content[i]!;
      // Only Cairn's own blocks count: a user's pasted text or a file's content never activates a skill.
      if (block.type === 'text' && isSyntheticBlock(entry, i)) yield block.text;
    }
  }
}
