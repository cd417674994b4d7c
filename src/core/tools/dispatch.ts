import type { HygieneConfig } from '../config/hygiene';
import type { HashCache } from './hashCache';
import type { Workspace } from '../ports';
import type { ParsedCall } from './args';
import { planPatch, runApplyPatch } from './applyPatch';
import type { PlanDeps, PlanOutcome } from './changePlan';
import { runBash } from './bashTool';
import { planEdits, planWrite, runEdit, runMultiEdit, runWrite } from './editTools';
import { errorOutcome, type ToolOutcome } from './outcome';
import { runRead, type ReadDeps } from './readTool';
import { runGlob, runGrep, runList } from './searchTools';
import { hiddenCharProblem } from '../text/visibleText';

export interface ToolDeps {
  readonly workspace: Workspace;
  readonly hashCache: HashCache;
  readonly config: HygieneConfig;
  readonly findStub: ReadDeps['findStub'];
  readonly images?: ReadDeps['images'];
  readonly signal?: AbortSignal;
  /** Output as it comes; a returned promise holds the command's output until it settles (the store is writing). */
  readonly onOutput?: (chunk: string) => void | Promise<void>;
}

/** Runs a validated call (recall is the ledger's own: it reads the store, not the workspace). */
export function runTool(call: Exclude<ParsedCall, { tool: 'recall' }>, deps: ToolDeps): Promise<ToolOutcome> {
  const editDeps = { workspace: deps.workspace, onWritten: (relative: string) => deps.hashCache.invalidate(relative) };
  // Every writing tool refuses a path with a hidden character (apply_patch's parser does the same for
  // each path of a patch): the approval prompt could not show it for what it is. Reads may still name one.
  if (call.tool === 'write' || call.tool === 'edit' || call.tool === 'multiedit') {
    const problem = hiddenCharProblem(call.args.path);
    if (problem) return Promise.resolve(errorOutcome(`${problem} Nothing was changed.`));
  }
  switch (call.tool) {
    case 'read':
      return runRead(call.args, deps);
    case 'write':
      return runWrite(call.args, editDeps);
    case 'edit':
      return runEdit(call.args, editDeps);
    case 'multiedit':
      return runMultiEdit(call.args, editDeps);
    case 'apply_patch':
      return runApplyPatch(call.args, editDeps);
    case 'list':
      return runList(call.args, deps.workspace);
    case 'glob':
      return runGlob(call.args, deps.workspace, deps.signal);
    case 'grep':
      return runGrep(call.args, deps.workspace, deps.config, deps.signal);
    case 'bash':
      return runBash(call.args, deps.workspace, {
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.onOutput ? { onOutput: deps.onOutput } : {}),
      });
  }
}

/** Whether the call writes files through a plan (write, edit, multiedit, apply_patch). */
export function writesFiles(call: ParsedCall): boolean {
  return call.tool === 'write' || call.tool === 'edit' || call.tool === 'multiedit' || call.tool === 'apply_patch';
}

/**
 * What a writing call (write, edit, multiedit, apply_patch) would change, worked out without writing: the
 * approval shows it, and an approved call writes exactly it. Undefined for a call that writes no file.
 */
export function planCall(call: ParsedCall, deps: PlanDeps): Promise<PlanOutcome> | undefined {
  if (call.tool === 'write' || call.tool === 'edit' || call.tool === 'multiedit') {
    const problem = hiddenCharProblem(call.args.path);
    if (problem) return Promise.resolve({ ok: false, message: `${problem} Nothing was changed.` });
  }
  switch (call.tool) {
    case 'write':
      return planWrite(call.args, deps);
    case 'edit':
      return planEdits(call.args.path, [call.args], deps, false);
    case 'multiedit':
      return planEdits(call.args.path, call.args.edits, deps, true);
    case 'apply_patch':
      return planPatch(call.args, deps);
    default:
      return undefined;
  }
}
