import { DEFAULT_HYGIENE, type HygieneConfig } from '../config/hygiene';
import type { Workspace } from '../ports';
import { checkArgs } from '../tools/args';
import { planCall, runTool, writesFiles } from '../tools/dispatch';
import {
  planStillFits,
  REVISED_NOTE,
  reviewedPlan,
  revisionsOf,
  writePlan,
  type ApprovedChange,
  type PlanOutcome,
} from '../tools/changePlan';
import type { ToolOutcome } from '../tools/outcome';
import { cutForModel } from './cutForModel';
import { renderFilesTable } from './filesTable';
import { HashCache } from '../tools/hashCache';
import { LedgerStateError, stateProblem, type LedgerState } from './ledgerState';
import { IdAllocator } from './ids';
import { storedText, storedTextOfJoined } from '../text/lines';
import { ReadTable } from './readTable';
import { errorAnswer, type Answer, type StoredBody } from './answer';
import { recallAnswer } from './recall';
import { renderChanges, resultText } from './render';
import { leanEditAnswer } from './leanEditAnswer';
import { SearchTable } from './searchTable';
import { OutputSpill } from './outputSpill';
import { Redactor } from './redactor';
import type { ImagePreparer, PreparedImage } from '../images/preparedImage';
import { sha256Hex } from '../text/sha';
import { imageReadAnswer, imageShown } from './imageAnswers';
import { textReadAnswer } from './readAnswer';
import type { ExternalTools, LedgerResult, ResultStore, ToolCall } from './types';

export interface ResultLedgerOptions {
  readonly workspace: Workspace;
  readonly store: ResultStore;
  readonly config?: HygieneConfig;
  readonly hashCache?: HashCache;
  readonly ids?: IdAllocator;
  /** The secrets no result may show (the API key); none when absent. */
  readonly redactor?: Redactor;
  /** Tools beyond the built-in ones (MCP servers' tools); none when absent. */
  readonly externalTools?: ExternalTools;
  /** Makes image files ready to send (`read` of an image answers with it); none: read as a binary file. */
  readonly images?: ImagePreparer;
}

export interface ExecuteContext {
  readonly signal?: AbortSignal;
  readonly onOutput?: (chunk: string) => void;
  /** The change the user approved (`propose`'s plan, maybe revised): written as it is, never worked out again. */
  readonly approved?: ApprovedChange;
}

/** What the ledger hands the tools: its output callback may hold the command while the store writes. */
interface InternalContext {
  readonly signal?: AbortSignal;
  readonly approved?: ApprovedChange;
  readonly onOutput: (chunk: string) => Promise<void> | undefined;
}

/**
 * The one place every tool result passes through (spec 3.0.0): it gives the result an id, stores it
 * in full, and decides what the model sees — the full text, a stub, a capped text or a diff. It never
 * changes anything already handed out; compaction only empties the dedupe tables.
 */
export { LedgerStateError, type LedgerState } from './ledgerState';

export class ResultLedger {
  private readonly workspace: Workspace;
  private readonly store: ResultStore;
  private readonly config: HygieneConfig;
  private readonly hashCache: HashCache;
  private readonly ids: IdAllocator;
  private readonly redactor: Redactor;
  private readonly externalTools: ExternalTools | undefined;
  private readonly images: ImagePreparer | undefined;
  private reads = new ReadTable();
  private searches = new SearchTable();

  constructor(options: ResultLedgerOptions) {
    this.workspace = options.workspace;
    this.store = options.store;
    this.config = options.config ?? { ...DEFAULT_HYGIENE };
    this.hashCache = options.hashCache ?? new HashCache();
    this.ids = options.ids ?? new IdAllocator({ digits: this.config['ids.digits'] });
    this.redactor = options.redactor ?? new Redactor();
    this.externalTools = options.externalTools;
    this.images = options.images;
    // Ids already in the store (a reopened session) are never given again.
    for (const id of this.store.ids()) this.ids.markUsed(id);
  }

  /**
   * A ledger for a sub-agent: the same store, ids, hash cache and redaction (ids stay unique in the session
   * and any result recalls by id), its own dedupe tables (a child's reads are not the parent's), its own tools.
   */
  sibling(options: { readonly externalTools?: ExternalTools }): ResultLedger {
    return new ResultLedger({
      workspace: this.workspace,
      store: this.store,
      config: this.config,
      hashCache: this.hashCache,
      ids: this.ids,
      redactor: this.redactor,
      ...(options.externalTools ? { externalTools: options.externalTools } : {}),
      ...(this.images ? { images: this.images } : {}),
    });
  }

  static restore(state: LedgerState, options: ResultLedgerOptions): ResultLedger {
    const problem = stateProblem(state);
    if (problem) throw new LedgerStateError(`Cannot restore the result ledger: ${problem}`);
    const config = options.config ?? DEFAULT_HYGIENE;
    const ids = IdAllocator.restore(state.ids, config['ids.digits']);
    const ledger = new ResultLedger({ ...options, ids });
    ledger.reads = new ReadTable(state.reads);
    ledger.searches = new SearchTable(state.searches);
    return ledger;
  }

  /** Runs the call and returns what the model sees. Bad input becomes an error result with an id; only a failing store throws. */
  async execute(call: ToolCall, context: ExecuteContext = {}): Promise<LedgerResult> {
    const id = this.ids.next();
    let answer: Answer;
    // A command's output streams, redacted like the result (a key split across two chunks included), to the
    // caller (the chat) and to the store, which so keeps all of it however long it is.
    const live = this.redactor.stream();
    const store = this.store;
    const spill = store.putBodyPart
      ? new OutputSpill(id, { putBodyPart: (i, part, text) => store.putBodyPart!(i, part, text) })
      : undefined;
    const pass = (text: string): Promise<void> | undefined => {
      if (text.length === 0) return undefined;
      context.onOutput?.(text);
      return spill?.add(text);
    };
    const streaming: InternalContext = {
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.approved ? { approved: context.approved } : {}),
      onOutput: (chunk: string) => pass(live.push(chunk)),
    };
    // The tool's own time, from its start to its answer (an approval asked before it is not in it).
    const started = performance.now();
    let durationMs: number | undefined;
    try {
      answer = await this.answer(id, call, streaming);
      durationMs = Math.round(performance.now() - started);
      await pass(live.end());
      if (spill && answer.outputStatus !== undefined) {
        const streamed = await spill.finish(answer.outputStatus ?? undefined);
        if (streamed) answer = { ...answer, stored: streamed };
      }
    } catch (error) {
      // A bug in a tool must not take the loop down: the model gets an error result like any other.
      answer = errorAnswer(id, `The ${call.name} tool failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
      durationMs ??= Math.round(performance.now() - started);
    }
    return this.finish(id, call, answer, durationMs);
  }

  /**
   * A call that is not run (the user denied it, or it was cancelled): it still gets an id and is stored.
   * `answer.ok`: its work was done elsewhere and `message` is its result (capped like any text).
   */
  async answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult> {
    const id = this.ids.next();
    if (!answer?.ok) return this.finish(id, call, errorAnswer(id, message));
    const lines = message.split('\n');
    return this.finish(id, call, this.textAnswer(id, call.name, call.input, lines, { lines }, false));
  }

  /**
   * An image the user attached (pasted or dropped in the chat): an id, its one line stored, the image sent
   * with the message. An image file in the workspace goes through `read` instead (a stub when unchanged).
   */
  async attachImage(call: ToolCall, name: string, image: PreparedImage): Promise<LedgerResult> {
    const id = this.ids.next();
    return this.finish(id, call, imageShown(id, name, image, undefined));
  }

  /**
   * What a writing call would change, worked out on the files as they are without writing anything (the
   * approval's diff); undefined for any other call, or input the tool would refuse before reading a file.
   */
  async propose(call: ToolCall): Promise<PlanOutcome | undefined> {
    if (this.externalTools?.has(call.name)) return undefined;
    const check = checkArgs(call.name, call.input);
    if (!check.ok || check.call.tool === 'recall') return undefined;
    return planCall(check.call, { workspace: this.workspace });
  }

  /** Whether a result with this id (`#a3f2`) is stored in this session (ids quoted by a model may not be). */
  has(id: string): boolean {
    return this.store.has(id);
  }

  filesTable(): string {
    return renderFilesTable(this.reads.newestPerPath(this.config['compaction.rows']), this.config.sha_digits);
  }

  clearDedupe(): void {
    this.reads.clear();
    this.searches.clear();
  }

  /**
   * Elision replaced these results in the context by a line each: the reads among them leave the reads
   * table, so no later stub points at text the model no longer has. (Searches are never elided, so the
   * searches table keeps every entry.)
   */
  forgetReads(ids: readonly string[]): void {
    this.reads.forget(new Set(ids));
  }

  /** Ids travel as the generator's state only: the ids already given are read back from the store on a reopen. */
  state(): LedgerState {
    const { digits, rng } = this.ids.state();
    return { version: 1, ids: { digits, rng }, reads: this.reads.state(), searches: this.searches.state() };
  }

  private async answer(id: string, call: ToolCall, context: InternalContext): Promise<Answer> {
    const external = this.externalTools;
    if (external?.has(call.name)) return this.externalAnswer(external, id, call, context);
    const check = checkArgs(call.name, call.input);
    if (!check.ok) return errorAnswer(id, check.message);
    if (check.call.tool === 'recall') return recallAnswer(this.store, this.config, id, check.call.args);
    if (context.approved && writesFiles(check.call)) {
      return this.fromOutcome(id, call.name, check.call.args, await this.writeApproved(context.approved));
    }
    const outcome = await runTool(check.call, {
      workspace: this.workspace,
      hashCache: this.hashCache,
      config: this.config,
      findStub: (path, sha, from, to) => this.reads.findCovering(path, sha, from, to)?.id,
      ...(this.images ? { images: this.images } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.onOutput ? { onOutput: context.onOutput } : {}),
    });
    return this.fromOutcome(id, call.name, check.call.args, outcome);
  }

  /**
   * Writes the change the user approved, as they left it: the plan shown, with the texts they settled on in
   * review. A file changed since it was shown is not overwritten: nothing is written and the model is told.
   */
  private async writeApproved(approved: ApprovedChange): Promise<ToolOutcome> {
    const revised = revisionsOf(approved.plan, approved.revised);
    const reviewed = revised ? reviewedPlan(approved.plan, revised) : { ok: true as const, plan: approved.plan };
    if (!reviewed.ok) return { type: 'error', message: `${reviewed.message} Nothing was changed.` };
    const moved = await planStillFits(reviewed.plan, { workspace: this.workspace });
    if (moved !== undefined) {
      return { type: 'error', message: `${moved} Nothing was changed. Read the file again and make the change on what it holds now.` };
    }
    const deps = { workspace: this.workspace, onWritten: (relative: string) => this.hashCache.invalidate(relative) };
    return writePlan(reviewed.plan, deps, revised ? REVISED_NOTE : undefined);
  }

  private async fromOutcome(id: string, tool: string, args: unknown, outcome: ToolOutcome): Promise<Answer> {
    switch (outcome.type) {
      case 'error':
        return errorAnswer(id, outcome.message);
      case 'files': {
        const changes = renderChanges(id, outcome.changes, this.config.sha_digits);
        // A note (the user revised the change) leads the body, so a recall of the result says it too.
        const rendered = outcome.note === undefined ? changes : { ...changes, body: [outcome.note, ...changes.body] };
        const stored =
          rendered.sentence !== undefined && (rendered.body.length === 0 || outcome.note !== undefined)
            ? [rendered.sentence, ...rendered.body]
            : rendered.body;
        const changed = outcome.changes.some((c) => c.kind !== 'unchanged');
        const answer: Answer = { ...rendered, kind: changed ? 'diff' : 'full', isError: false, stored: { lines: stored }, cappable: true };
        return changed && this.config['edit.answer'] === 'lean' ? leanEditAnswer(answer, id, tool, args) : answer;
      }
      case 'text':
        return this.textAnswer(id, tool, args, outcome.lines, { lines: outcome.lines });
      case 'output':
        // One string from end to end: capped by scanning its line endings, stored as it is (or as it streamed).
        return { ...this.textAnswer(id, tool, args, outcome.text, { text: outcome.text }), outputStatus: outcome.status ?? null };
      case 'read':
        return (
          (await textReadAnswer(id, outcome, this.reads, this.store, this.config.sha_digits)) ??
          this.readAgain(id, {
            path: outcome.facts.displayPath,
            offset: outcome.facts.from,
            limit: outcome.facts.to - outcome.facts.from + 1,
          })
        );
      case 'image':
        return (
          imageReadAnswer(id, outcome, this.reads, this.config.sha_digits) ?? this.readAgain(id, { path: outcome.facts.displayPath }, true)
        );
    }
  }

  /** An MCP server's tool: its text like a command's output; its error as an error result (both capped). */
  private async externalAnswer(external: ExternalTools, id: string, call: ToolCall, context: InternalContext): Promise<Answer> {
    const outcome = await external.run(call.name, call.input, {
      callId: call.callId,
      ...(context.signal ? { signal: context.signal } : {}),
      // Progress lines go to the chat as the tool's live output; the result is what the server answers.
      ...(context.onOutput ? { onProgress: (line: string) => void context.onOutput?.(`${line}\n`) } : {}),
    });
    // Redacted with every other result, in `finish`.
    if (outcome.isError) return errorAnswer(id, outcome.text);
    return this.textAnswer(id, call.name, call.input, outcome.text, { text: outcome.text }, outcome.sameResultDedupe);
  }

  /** A listing, a search or a command's output: in full (capped on the way), or "same as" an earlier identical result. */
  private textAnswer(
    id: string,
    tool: string,
    args: unknown,
    body: readonly string[] | string,
    stored: StoredBody,
    sameResultDedupe = this.config['dedupe.by_result'].includes(tool),
  ): Answer {
    if (sameResultDedupe) {
      const key = SearchTable.keyOf(tool, args);
      const sha = sha256Hex(typeof body === 'string' ? body : body.join('\n'));
      const same = this.searches.findSame(key, sha);
      if (same) {
        return {
          bracket: `[${id}]`,
          sentence: `Same result as ${same.id}.`,
          body: [],
          kind: 'same-result',
          isError: false,
          stored,
          cappable: false,
          refersTo: [same.id],
        };
      }
      this.searches.add(key, { id, sha });
    }
    return { bracket: `[${id}]`, body, kind: 'full', isError: false, stored, cappable: true };
  }

  /**
   * The reads table changed while a read ran (a compaction): the stub the tool found is gone and it kept no
   * content, so the file is read after all, in full (the same lines; an image file whole).
   */
  private async readAgain(
    id: string,
    args: { readonly path: string; readonly offset?: number; readonly limit?: number },
    asImage = false,
  ): Promise<Answer> {
    const again = await runTool(
      { tool: 'read', args },
      {
        workspace: this.workspace,
        hashCache: this.hashCache,
        config: this.config,
        findStub: () => undefined,
        ...(asImage && this.images ? { images: this.images } : {}),
      },
    );
    return this.fromOutcome(id, 'read', {}, again);
  }

  /** Redacts, caps, stores (durably, before the model is shown anything) and shapes the result. */
  private async finish(id: string, call: ToolCall, unredacted: Answer, durationMs?: number): Promise<LedgerResult> {
    const answer = this.redacted(unredacted);
    let shown = answer.body;
    let kind = answer.kind;
    if (answer.cappable) {
      const capped = cutForModel(answer.body, id, this.config, answer.outputStatus !== undefined);
      if (capped) {
        shown = capped;
        if (kind === 'full') kind = 'capped';
      }
    }
    const stored = answer.stored;
    const storedBody =
      'lines' in stored
        ? storedText(stored.lines)
        : 'text' in stored
          ? storedTextOfJoined(stored.text)
          : 'rest' in stored
            ? stored.rest
            : '';
    const fullChars = 'ref' in stored ? stored.ref.chars : 'parts' in stored ? stored.parts.chars + storedBody.length : storedBody.length;
    await this.store.put({
      id,
      callId: call.callId,
      tool: call.name,
      input: call.input,
      bracket: answer.bracket,
      body: storedBody,
      // How the model was answered (a cap included): a reload's chat and its "hygiene saved" read it here.
      kind,
      ...('ref' in stored ? { bodyRef: stored.ref } : {}),
      ...('parts' in stored ? { bodyParts: stored.parts } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      // A recall's image is the one it names, stored there already.
      ...(answer.image && kind !== 'recall' ? { image: answer.image.source } : {}),
      ...(answer.imageTokensKeptOut !== undefined ? { imageTokensKeptOut: answer.imageTokensKeptOut } : {}),
    });
    return {
      id,
      tool: call.name,
      bracket: answer.bracket,
      text: resultText({ bracket: answer.bracket, sentence: answer.sentence, body: shown }),
      kind,
      fullChars,
      isError: answer.isError,
      ...(answer.refersTo ? { refersTo: answer.refersTo } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(answer.image ? { image: answer.image } : {}),
      ...(answer.imageTokensKeptOut !== undefined ? { imageTokensKeptOut: answer.imageTokensKeptOut } : {}),
    };
  }

  /**
   * The answer with every secret the redactor knows replaced, in what is shown and in what is stored (a
   * file or an output that holds the key). A reference names a stored body, already redacted.
   */
  private redacted(answer: Answer): Answer {
    const r = this.redactor.redacting();
    const stored = answer.stored;
    return {
      ...answer,
      bracket: r(answer.bracket),
      ...(answer.sentence !== undefined ? { sentence: r(answer.sentence) } : {}),
      body: typeof answer.body === 'string' ? r(answer.body) : answer.body.map(r),
      stored: 'lines' in stored ? { lines: stored.lines.map(r) } : 'text' in stored ? { text: r(stored.text) } : stored,
    };
  }
}
