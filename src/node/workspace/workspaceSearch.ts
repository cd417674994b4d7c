import type { GrepMatch, GrepQuery } from '../../core/ports';
import { MatchCollector, type Unsearched } from './javascriptGrep';
import { findRipgrep, grepWithRipgrep, RipgrepStartError, type RipgrepPattern } from './ripgrepSearch';
import { globTooCostly, grepTooCostly, SearchBound, SearchCancelledError } from './searchBound';
import type { GrepRequest } from './searchProtocol';
import { sharedSearchThreads, type SearchThreads } from './searchThreads';

export type GrepEngine = 'ripgrep' | 'javascript';

export interface WorkspaceSearchOptions {
  /** The workspace root as given (walks start there). */
  readonly root: string;
  /** The root's real path (the JavaScript engine checks each opened file is under it). */
  readonly realRoot: () => Promise<string>;
  /** A path checked against the root, relative to it; throws a `WorkspacePathError` for a refused one. */
  readonly relative: (path: string) => Promise<string>;
  /** See `NodeWorkspaceOptions.ripgrepPath`. */
  readonly ripgrepPath: string | null | undefined;
  /** Each search's time bound (see `searchBound.ts`). */
  readonly timeoutMs: number;
  readonly threads?: SearchThreads;
}

/**
 * glob and grep for one workspace root, run so that no pattern can freeze the thread that asks: the
 * costly parts (the walk, matching, the JavaScript engine) in a search thread, ripgrep in its own
 * process, both under the search's time bound and the caller's cancel. Answers are the ones the
 * same code gave when it ran on the asking thread: the thread sends them in batches, collected here.
 */
export class WorkspaceSearch {
  private ripgrep: Promise<string | null> | undefined;
  private readonly threads: SearchThreads;

  constructor(private readonly options: WorkspaceSearchOptions) {
    this.threads = options.threads ?? sharedSearchThreads;
  }

  /** Files under `start` (checked, relative to the root) matching `pattern`, sorted. */
  async glob(pattern: string, start: string, signal?: AbortSignal): Promise<string[]> {
    const bound = new SearchBound(this.options.timeoutMs);
    const found: string[] = [];
    await this.threads.run(
      { kind: 'glob', root: this.options.root, start, pattern },
      {
        bound,
        what: 'glob',
        ...(signal ? { signal } : {}),
        timedOut: () => globTooCostly(pattern, bound.limitMs, start),
        onReply: (reply) => {
          if (reply.kind === 'paths') for (const path of reply.paths) found.push(path);
        },
      },
    );
    return found.sort();
  }

  async grep(query: GrepQuery): Promise<GrepMatch[]> {
    // The path is checked on this thread (the resolver lives here); a refused one is thrown only once
    // the search thread has checked the pattern, so a bad pattern is still the error named first.
    let start: string | null = '';
    let refused: { readonly error: unknown } | undefined;
    if (query.path !== undefined && query.path !== '') {
      try {
        start = await this.options.relative(query.path);
      } catch (error) {
        refused = { error };
        start = null;
      }
    }
    const ripgrep = start === null ? null : await this.findRipgrep();
    const request: GrepRequest = {
      kind: 'grep',
      root: this.options.root,
      realRoot: await this.options.realRoot(),
      pattern: query.pattern,
      ignoreCase: query.ignoreCase ?? false,
      start,
      glob: query.glob ? query.glob : null,
      engine: ripgrep ? 'ripgrep' : 'javascript',
    };
    const bound = new SearchBound(this.options.timeoutMs);
    const unsearched = query.onUnsearched ?? (() => {});
    if (!ripgrep) {
      const matches = await this.searchInThread(request, bound, unsearched, query.signal);
      if (refused) throw refused.error;
      return byPathAndLine(matches);
    }

    let listed: { readonly files: readonly string[]; readonly pattern: RipgrepPattern } | undefined;
    await this.threads.run(request, {
      bound,
      what: 'grep',
      ...(query.signal ? { signal: query.signal } : {}),
      timedOut: () => grepTooCostly(query.pattern, bound.limitMs, 'ripgrep'),
      onReply: (reply) => {
        if (reply.kind === 'files') listed = reply;
      },
    });
    if (!listed || listed.files.length === 0) return [];
    const { files, pattern } = listed;
    try {
      const timedOut = (): Error => grepTooCostly(query.pattern, bound.limitMs, 'ripgrep');
      return byPathAndLine(
        await underBound(bound, query.signal, timedOut, (signal) =>
          grepWithRipgrep(ripgrep, this.options.root, files, pattern, unsearched, signal),
        ),
      );
    } catch (error) {
      if (!(error instanceof RipgrepStartError)) throw error;
      // Found but unusable: the fallback gives the same answers, so use it from now on.
      this.ripgrep = Promise.resolve(null);
      return byPathAndLine(await this.searchInThread({ ...request, engine: 'javascript', files }, bound, unsearched, query.signal));
    }
  }

  /** Which engine grep uses on this machine. */
  async engine(): Promise<GrepEngine> {
    return (await this.findRipgrep()) ? 'ripgrep' : 'javascript';
  }

  /** The JavaScript engine in the search thread, its batches collected (see `MatchCollector`). */
  private async searchInThread(
    request: GrepRequest,
    bound: SearchBound,
    unsearched: Unsearched,
    signal?: AbortSignal,
  ): Promise<GrepMatch[]> {
    const collected = new MatchCollector();
    await this.threads.run(request, {
      bound,
      what: 'grep',
      ...(signal ? { signal } : {}),
      timedOut: () => grepTooCostly(request.pattern, bound.limitMs, 'javascript'),
      onReply: (reply) => {
        if (reply.kind === 'matches') {
          const { path, lines, texts } = reply;
          collected.add(lines.map((line, n) => ({ path, line, text: texts[n] as string })));
        } else if (reply.kind === 'unsearched') {
          collected.drop(reply.path);
          unsearched(reply.path, reply.reason);
        }
      },
    });
    return collected.all();
  }

  private findRipgrep(): Promise<string | null> {
    this.ripgrep ??= findRipgrep(this.options.ripgrepPath);
    return this.ripgrep;
  }
}

/** Runs `work` with a signal that aborts at the bound (with `timedOut()`) or on the caller's cancel. */
async function underBound<T>(
  bound: SearchBound,
  cancel: AbortSignal | undefined,
  timedOut: () => Error,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(timedOut()), bound.start());
  const onCancel = (): void => stop.abort(new SearchCancelledError('grep'));
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  try {
    return await work(stop.signal);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}

function byPathAndLine(matches: GrepMatch[]): GrepMatch[] {
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}
