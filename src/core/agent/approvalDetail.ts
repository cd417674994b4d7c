/**
 * The full picture of a call for its approval prompt. A patch's paths come from `parsePatch`, the parser
 * `apply_patch` runs, so the prompt lists exactly the files that will be written, moved and deleted.
 */
import type { ApprovalDetail, ApprovalFile } from './approval';
import { parsePatch, PatchParseError } from '../tools/patchParser';
import { hiddenCharProblem } from '../text/visibleText';
import { changePreview } from './approvalPreview';

function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every path of a patch, in its order; throws `PatchParseError` for a patch that will not apply. */
export function patchFiles(patch: string): ApprovalFile[] {
  return parsePatch(patch).map((op): ApprovalFile => {
    if (op.type === 'update' && op.moveTo !== undefined) return { change: 'update', path: op.path, moveTo: op.moveTo };
    return { change: op.type, path: op.path };
  });
}

export function describeForApproval(tool: string, input: unknown): ApprovalDetail {
  const detail = describeCall(tool, input);
  const preview = detail.problem === undefined ? changePreview(tool, input) : undefined;
  return preview === undefined ? detail : { ...detail, preview };
}

function describeCall(tool: string, input: unknown): ApprovalDetail {
  switch (tool) {
    case 'bash': {
      const command = stringField(input, 'command');
      return command === undefined ? {} : { command };
    }
    case 'write':
    case 'edit':
    case 'multiedit': {
      const path = stringField(input, 'path');
      if (path === undefined) return {};
      const problem = hiddenCharProblem(path);
      return {
        files: [{ change: tool === 'write' ? 'write' : 'edit', path }],
        ...(problem ? { problem: `${problem} Nothing was changed.` } : {}),
      };
    }
    case 'apply_patch': {
      const patch = stringField(input, 'patch');
      if (patch === undefined) return {};
      try {
        return { files: patchFiles(patch) };
      } catch (error) {
        const message = error instanceof PatchParseError ? error.message : String(error);
        return { problem: `The patch could not be read: ${message} Nothing was changed.` };
      }
    }
    case 'web_fetch': {
      // The whole URL: what leaves the machine is in it.
      const url = stringField(input, 'url');
      return url === undefined ? {} : { arguments: JSON.stringify({ url }) };
    }
    default:
      return {};
  }
}
