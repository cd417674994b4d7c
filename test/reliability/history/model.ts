/**
 * The model side of the model-based history suite (README.md beside this file): what a user who watched every
 * step would expect of the session, kept without looking inside it. The files Cairn's tools wrote, the user's
 * texts on the active branch and which API message holds each, whether a message waits for its answer, the
 * generation numbers, whether Undo is offered, and each checkpoint as the turn that made it. The commands
 * (`commands.ts`) move it alongside the real session, and the checks (`checks.ts`) compare the two after every
 * step.
 */

/** The files the model's tools write and edit; commands write only under `out/`, which is not followed. */
export const FILES = ['src/a.txt', 'src/b.txt', 'src/c.txt', 'notes.md'] as const;

export type FileContents = Map<string, string>;

/** Text of version `version` of `path`: a first line naming the version (what an edit replaces), then `lines` lines. */
export function fileContent(path: string, version: number, lines: number): string {
  let text = `${firstLine(path, version)}\n`;
  for (let i = 1; i <= lines; i++) text += `${path} line ${i} of v${version}\n`;
  return text;
}

export function firstLine(path: string, version: number): string {
  return `${path} v${version}`;
}

export const INITIAL_FILES: Readonly<Record<string, string>> = {
  'src/a.txt': fileContent('src/a.txt', 0, 12),
  'src/b.txt': fileContent('src/b.txt', 0, 6),
};

/** One user text on the active branch, and the API message (the model's own numbering) that holds it. */
export interface BranchText {
  readonly text: string;
  readonly message: number;
  /** Its message also holds tool results (the text joined a failed request's results). */
  readonly withResults: boolean;
}

/** A message no answer followed (a request that failed): the next text joins it, or Retry asks again. */
export interface Waiting {
  readonly message: number;
  readonly hasResults: boolean;
  /** It holds only Cairn's opening (a rewind kept a compaction's summary): no checkpoint's message is in it. */
  readonly openingOnly?: boolean;
}

/** Where a turn's checkpoint is to name: what a restore of the conversation to it keeps. */
export type Place = Pick<CheckpointFact, 'kind' | 'text' | 'textsBefore' | 'atResults' | 'opening'>;

export type CheckpointKind = 'send' | 'join' | 'retry' | 'restore';

/** A checkpoint as the model knows it: the turn that made it, where its message is, what it changed. */
export interface CheckpointFact {
  readonly id: string;
  readonly kind: CheckpointKind;
  /** The user text of its turn (a send or a join); a retry's and a restore's have none. */
  readonly text?: string;
  /** The generation its turn began in. */
  readonly generation: number;
  /** How many branch texts are before its message: a restore of the conversation keeps those. */
  readonly textsBefore: number;
  /** Its message holds tool results, which a restore of the conversation keeps (they then wait for an answer). */
  readonly atResults: boolean;
  /**
   * A Retry of a message that held only Cairn's opening (a rewind kept a compaction's summary and it waited): its
   * message is the generation's first, Cairn's own, with no text of the user's.
   */
  readonly opening?: boolean;
  /**
   * A restore's checkpoint names the place of the next user message (the conversation's length then): true once
   * the next run's send put a message there, false when that run joined a waiting message or was a Retry (the
   * place then holds the answer). Undefined until the next run.
   */
  placed?: boolean;
  /** Each file its turn changed, with its content before the first change (undefined: it did not exist). */
  readonly before: Map<string, string | undefined>;
  /** The session crashed while its turn ran: its files may be conflicts ("the turn did not finish"). */
  crashed: boolean;
}

export interface ModelStats {
  steps: number;
  moves: Map<string, number>;
  /** Milliseconds spent in each move (checks included): where a run's time goes. */
  moveMs: Map<string, number>;
  refusals: Map<string, number>;
  autoCompactions: number;
  elisions: number;
  manualCompactions: number;
  undos: number;
  conversationRestores: number;
  fileRestores: number;
  edits: number;
  crashes: number;
  reopens: number;
  children: number;
  faults: number;
  requests: number;
}

export function emptyStats(): ModelStats {
  return {
    steps: 0,
    moves: new Map(),
    moveMs: new Map(),
    refusals: new Map(),
    autoCompactions: 0,
    elisions: 0,
    manualCompactions: 0,
    undos: 0,
    conversationRestores: 0,
    fileRestores: 0,
    edits: 0,
    crashes: 0,
    reopens: 0,
    children: 0,
    faults: 0,
    requests: 0,
  };
}

export function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export class HistoryModel {
  files: FileContents = new Map(Object.entries(INITIAL_FILES));
  branch: BranchText[] = [];
  waiting: Waiting | undefined;
  generation = 0;
  private highest = 0;
  /** Undo is offered: the generation a compaction or an elision left, and the one it came from. */
  undoable:
    { generation: number; previous: number; branch: BranchText[]; waiting: Waiting | undefined; lost: ReadonlySet<string> } | undefined;
  /**
   * Checkpoints whose message the conversation no longer holds (a compaction summarized it, a rewind dropped it):
   * "and conversation" is refused for them. An elision keeps every message; a rewind keeps those before the one it
   * returns to, and the new branch's message at that place stands for the one it replaced.
   */
  lost = new Set<string>();
  /** Checkpoints in the session's order. */
  checkpoints: CheckpointFact[] = [];
  /** Children started in this session (the next `task` call's child is `explore-${children + 1}`). */
  children = 0;
  /** Paths the user changed outside Cairn, with the checkpoint count then (a later restore may call them conflicts). */
  readonly userEdits: Array<{ path: string; checkpoints: number }> = [];
  private messages = 0;
  private versions = 0;
  private texts = 0;
  readonly stats: ModelStats;

  constructor(stats: ModelStats = emptyStats()) {
    this.stats = stats;
  }

  get unanswered(): boolean {
    return this.waiting !== undefined;
  }

  nextVersion(): number {
    return ++this.versions;
  }

  nextText(kind: string): string {
    return `u${++this.texts} ${kind}`;
  }

  nextMessage(): number {
    return ++this.messages;
  }

  /** A new generation became active (a compaction, an elision, a rewind). */
  newGeneration(): number {
    this.highest += 1;
    this.generation = this.highest;
    return this.generation;
  }

  /** After a crash: the generations the reopened journal holds. */
  setGeneration(current: number, highest: number): void {
    this.generation = current;
    this.highest = Math.max(highest, current);
  }

  /** A compaction or an elision: Undo is offered until a request has carried the new generation. */
  compacted(kind: 'compaction' | 'elision'): void {
    const previous = this.generation;
    const branch = [...this.branch];
    const waiting = this.waiting;
    const lost = new Set(this.lost);
    this.newGeneration();
    this.undoable = { generation: this.generation, previous, branch, waiting, lost };
    if (kind === 'compaction') for (const cp of this.checkpoints) this.lost.add(cp.id);
  }

  undone(): void {
    const undo = this.undoable!;
    this.generation = undo.previous;
    this.branch = undo.branch;
    this.waiting = undo.waiting;
    this.lost = new Set(undo.lost);
    // A checkpoint made while the undone generation was active (a restore's) names a place in that generation:
    // the place is gone with it, and the session refuses "and conversation" to it (files only), rightly.
    for (const cp of this.checkpoints) if (cp.generation === undo.generation) this.lost.add(cp.id);
    this.undoable = undefined;
  }

  /**
   * The user's text goes out: it joins the waiting message, or starts one. Returns where its turn's checkpoint
   * (if the turn changes a file) is to name.
   */
  sendText(text: string): Place {
    this.settleRestores(!this.waiting);
    const waiting = this.waiting;
    if (waiting) {
      const first = this.branch.findIndex((t) => t.message === waiting.message);
      this.branch.push({ text, message: waiting.message, withResults: waiting.hasResults });
      return { kind: 'join', text, textsBefore: first >= 0 ? first : this.branch.length - 1, atResults: waiting.hasResults };
    }
    const message = this.nextMessage();
    this.branch.push({ text, message, withResults: false });
    this.waiting = { message, hasResults: false };
    return { kind: 'send', text, textsBefore: this.branch.length - 1, atResults: false };
  }

  /** Retry: the waiting message is asked again. */
  retryPlace(): Place {
    this.settleRestores(false);
    const waiting = this.waiting!;
    const first = this.branch.findIndex((t) => t.message === waiting.message);
    if (first >= 0) return { kind: 'retry', textsBefore: first, atResults: waiting.hasResults };
    // Retrying the summary a rewind left answers Cairn's own message at that place: a checkpoint whose message the
    // rewind replaced there has nothing of the user's left to go back before.
    if (waiting.openingOnly) for (const cp of this.checkpoints) if (cp.textsBefore === this.branch.length) this.lost.add(cp.id);
    // No text of the user's is in it: the message a rewind kept for the compaction's opening (or a results message).
    return { kind: 'retry', textsBefore: this.branch.length, atResults: waiting.hasResults, opening: !waiting.hasResults };
  }

  private settleRestores(placed: boolean): void {
    for (const cp of this.checkpoints) if (cp.kind === 'restore' && cp.placed === undefined) cp.placed = placed;
  }

  /** A request carried the generation: Undo is no longer offered. */
  requestAnswered(): void {
    this.undoable = undefined;
  }

  /**
   * The conversation starts again before branch text `index`'s message (edit and resend). `opening`: that message
   * is the generation's first and opens with Cairn's blocks (a compaction's summary), which the rewind keeps.
   */
  rewindToText(index: number, opening: boolean): void {
    const message = this.branch[index]!.message;
    const first = this.branch.findIndex((t) => t.message === message);
    const withResults = this.branch[first]!.withResults;
    this.rewind(first, withResults, opening);
  }

  /** The conversation starts again before a checkpoint's message (a restore of files and conversation). */
  rewindToCheckpoint(cp: CheckpointFact, opening: boolean): void {
    this.rewind(cp.textsBefore, cp.atResults, opening);
  }

  /** Keeps the texts before `keep`; what the rewound message kept (its results, Cairn's opening) waits for the next text. */
  private rewind(keep: number, atResults: boolean, opening: boolean): void {
    for (const cp of this.checkpoints) if (cp.textsBefore > keep) this.lost.add(cp.id);
    this.branch = this.branch.slice(0, keep);
    this.waiting =
      atResults || opening
        ? { message: this.nextMessage(), hasResults: atResults, ...(atResults ? {} : { openingOnly: true }) }
        : undefined;
    this.undoable = undefined;
    this.newGeneration();
  }

  /**
   * Whether "Restore Files and Conversation" to this checkpoint goes back (else it is refused, saying why): the
   * conversation still holds its message (issue 29 item 2: elisions and rewinds carry a message into their new
   * generation; only a compaction or a rewind before it loses it), a restore's checkpoint once a message was put at
   * its place, and something stands at that place (a rewind's own place holds nothing until the next message, or
   * the results and opening kept for it).
   */
  conversationReachable(cp: CheckpointFact): boolean {
    if (this.lost.has(cp.id)) return false;
    if (cp.kind === 'restore' && cp.placed !== true) return false;
    // Its message is Cairn's own opening (the summary a rewind kept): no message of the user's to go back before,
    // and the session refuses as for any place before the last compaction (files only).
    if (cp.opening) return false;
    // At the branch's end its message is there when it holds results (they stay, answered or waiting) or waits.
    return (
      cp.textsBefore < this.branch.length ||
      (cp.textsBefore === this.branch.length && (cp.atResults || (this.waiting !== undefined && this.waiting.openingOnly !== true)))
    );
  }

  /**
   * What a restore to `cp` puts back, per path: the content before the first change of that checkpoint or a
   * later one (undefined: no file).
   */
  restoreTargets(cp: CheckpointFact): Map<string, string | undefined> {
    const targets = new Map<string, string | undefined>();
    for (const later of this.checkpoints.slice(this.checkpoints.indexOf(cp))) {
      for (const [path, before] of later.before) if (!targets.has(path)) targets.set(path, before);
    }
    return targets;
  }

  /** Whether a restore to `cp` may call `path` a conflict: the user changed it since, or a turn after it crashed. */
  mayConflict(cp: CheckpointFact, path: string): boolean {
    const from = this.checkpoints.indexOf(cp);
    if (this.checkpoints.slice(from).some((c) => c.crashed && c.before.has(path))) return true;
    return this.userEdits.some((edit) => edit.path === path && edit.checkpoints > from);
  }
}
