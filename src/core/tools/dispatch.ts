import type { HygieneConfig } from '../config/hygiene';
import type { HashCache } from './hashCache';
import type { Workspace } from '../ports';
import type { ParsedCall } from './args';
import { runApplyPatch } from './applyPatch';
import { runBash } from './bashTool';
import { runEdit, runMultiEdit, runWrite } from './editTools';
import { errorOutcome, type ToolOutcome } from './outcome';
import { runRead, type ReadDeps } from './readTool';
import { runGlob, runGrep, runList } from './searchTools';
import { hiddenCharProblem } from '../text/visibleText';

export interface ToolDeps {
  readonly workspace: Workspace;
  readonly hashCache: HashCache;
  readonly config: HygieneConfig;
  readonly findStub: ReadDeps['findStub'];
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
