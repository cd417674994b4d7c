import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalRecorder } from '../src/core/agent/journalRecorder';
import { Compactor } from '../src/core/compaction/compactor';
import { DEFAULT_COMPACTION_SETTINGS } from '../src/core/compaction/settings';
import type { Summarizer } from '../src/core/compaction/summarizer';
import { Composer } from '../src/core/compose/composer';
import { DecisionQueue } from '../src/core/compose/decisions';
import { ActiveGeneration } from '../src/core/conversation/activeGeneration';
import { emptyProjectContext } from '../src/core/compose/projectContextSource';
import { noRules } from '../src/core/compose/rules';
import type { ResultLedger } from '../src/core/ledger/resultLedger';
import type { LedgerResult, ToolCall } from '../src/core/ledger/types';
import { appendHistory } from '../src/core/compaction/node/historyArchive';
import { SessionJournal } from '../src/core/journal/node/sessionJournal';
import { TOOL_DEFINITIONS } from '../src/core/tools/definitions';
import { Elider } from '../src/core/elision/elider';

/** Answers every summary request with the case's text: the conformance step's "summarizer that returns TEXT". */
class CaseSummarizer implements Summarizer {
  text = '';
  async summarize() {
    return { text: this.text, model: 'conformance', attempts: 1 };
  }
}

/**
 * A case's `compact` step through the real compaction machinery: each call is a turn of a conversation
 * (the user's step, the tool call, its result), and the step runs the `Compactor` (plan, one journal
 * record, files table, dedupe reset, new generation) with a summarizer that returns the case's text,
 * keeping no tail. The step's text is what the new generation starts with.
 */
export class CaseCompaction {
  private constructor(
    private readonly generations: ActiveGeneration,
    private readonly summarizer: CaseSummarizer,
    private readonly compactor: Compactor,
    private readonly journal: SessionJournal,
    private readonly scratch: string,
    private readonly elider: Elider,
  ) {}

  static async create(root: string, ledger: ResultLedger): Promise<CaseCompaction> {
    const scratch = mkdtempSync(join(tmpdir(), 'cairn-conformance-session-'));
    const journal = await SessionJournal.create(scratch, { workspace: root, model: 'conformance' });
    const decisions = new DecisionQueue();
    const composer = new Composer({
      decisions,
      tools: TOOL_DEFINITIONS,
      preamble: 'Conformance run.',
      rules: noRules,
      projectContext: emptyProjectContext,
      sessionDate: '2026-01-01',
    });
    await composer.prepare();
    const generations = new ActiveGeneration();
    const summarizer = new CaseSummarizer();
    const recorder = new JournalRecorder(journal, () => ledger.state());
    // Every superseded result, whatever the cost model would say: the step pins the set and the text.
    const elider = new Elider({
      generations,
      decisions,
      recorder,
      ledger,
      ledgerState: () => ledger.state(),
      journal,
      staticState: () => composer.staticState(),
      estimate: (entries) => entries.reduce((n, e) => n + JSON.stringify(e.message).length, 0),
      settings: () => ({ mode: 'auto', margin: 0, minTokens: 0, minResults: 1, thresholdRoom: 0 }),
      thresholdTokens: async () => 1_000_000,
      lastRequestAt: () => undefined,
      log: () => undefined,
    });
    return new CaseCompaction(
      generations,
      summarizer,
      new Compactor({
        generations,
        decisions,
        recorder,
        ledgerState: () => ledger.state(),
        ledger,
        composer,
        journal,
        archiveHistory: (markdown) => appendHistory(journal.sessionDir, markdown),
        summarizer,
        settings: () => ({ ...DEFAULT_COMPACTION_SETTINGS, minSummaryChars: 0 }),
        model: () => 'conformance',
        maxTokens: () => 1000,
        windowTokens: async () => 1_000_000,
        log: () => undefined,
      }),
      journal,
      scratch,
      elider,
    );
  }

  recordCall(step: number, call: ToolCall, result: LedgerResult): void {
    const { conversation } = this.generations.current;
    conversation.appendUser([{ type: 'text', text: `step ${step}` }]);
    conversation.markSent();
    conversation.appendAssistant({
      role: 'assistant',
      content: [{ type: 'tool_use', id: call.callId, name: call.name, input: call.input }],
    });
    conversation.appendUser([{ type: 'tool_result', tool_use_id: call.callId, content: result.text }]);
    conversation.markSent();
  }

  async compact(summary: string): Promise<string> {
    this.summarizer.text = summary;
    const outcome = await this.compactor.compact({ reason: 'manual', keepNothing: true }, new AbortController().signal);
    if (!outcome.applied) throw new Error(`compaction was not applied: ${outcome.reason}`);
    return outcome.plan.opening;
  }

  /**
   * A case's `elide` step: elides every superseded result now. Its text is each elided result as the new
   * generation shows it, one per line, in conversation order; `Nothing superseded.` when there is none.
   */
  async elide(): Promise<string> {
    const plan = await this.elider.plan();
    if (!plan || plan.elided.length === 0) return 'Nothing superseded.';
    await this.elider.apply(plan, 'auto');
    const elided = new Set(plan.elided.map((e) => e.id));
    return this.generations.current.conversation
      .all()
      .flatMap((e) => e.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])))
      .filter((text) => elided.has(/^\[(#[0-9a-f]+)/.exec(text)?.[1] ?? ''))
      .join('\n');
  }

  async dispose(): Promise<void> {
    await this.journal.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
