/**
 * When a PreCompact hook may stop a compaction (`hooks/compactionHook.ts` runs the hooks): the rule the
 * compactor applies once per compaction, before its summary is paid for.
 */
import type { CompactionReason } from '../conversation/generationDetail';

export type CompactionHook = (
  trigger: 'manual' | 'auto',
  instructions: string | undefined,
  signal: AbortSignal,
) => Promise<string | undefined>;

/** What of a compaction request the rule reads (`CompactionRequest`, `compactionPlanner.ts`). */
interface HookedRequest {
  readonly reason: CompactionReason;
  readonly instructions?: string;
  readonly mustFit?: boolean;
}

/**
 * The PreCompact hooks. A block stops a manual compaction and an automatic one the context could still do
 * without; when the next request would not fit the window (an overflow, or past the hard fit), refusing
 * would fail the request, so Cairn compacts anyway and says the hook's block was overridden.
 */
export async function preCompactVerdict(
  deps: { readonly beforeCompact?: CompactionHook; readonly log: (line: string) => void },
  options: HookedRequest,
  signal: AbortSignal,
): Promise<{ refused?: string; overridden?: string }> {
  const hook = deps.beforeCompact;
  if (!hook) return {};
  const trigger = options.reason === 'manual' ? 'manual' : 'auto';
  const refused = await hook(trigger, options.instructions, signal);
  if (refused === undefined) return {};
  if (trigger === 'manual' || (options.reason === 'auto' && !options.mustFit)) return { refused };
  deps.log(`[Context] ${refused} (overridden: the next request does not fit the window)`);
  return { overridden: `${refused}. Cairn compacted anyway: the next request would not have fit the model's window.` };
}
