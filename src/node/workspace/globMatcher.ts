import picomatch from 'picomatch';

/**
 * Glob semantics, in one place.
 *
 * - The glob tool's pattern is a path pattern: `*` stays within one folder, `**` crosses folders,
 *   `{a,b}` alternates, dotfiles match (`.github/**` works). With a folder given, a file matches
 *   when the pattern matches its path from that folder *or* from the root, so `*.ts` under `src`
 *   and `src/*.ts` both mean what they say.
 * - grep's `glob` filter follows ripgrep's `-g` and .gitignore: a pattern without a `/` matches
 *   the file name at any depth (`*.ts`), one with a `/` matches the path from the root; a leading
 *   `!` turns it into an exclusion.
 */
export function globPathMatcher(pattern: string, under: string): (relative: string) => boolean {
  const clean = stripLeading(pattern);
  const matches = picomatch(clean, { dot: true });
  if (under === '') return (relative) => matches(relative);
  const prefix = `${under}/`;
  return (relative) => matches(relative) || (relative.startsWith(prefix) && matches(relative.slice(prefix.length)));
}

export function grepGlobFilter(pattern: string): (relative: string) => boolean {
  const negated = pattern.startsWith('!');
  const clean = stripLeading(negated ? pattern.slice(1) : pattern);
  // picomatch's `basename` option also changes patterns that have a `/`, so it is only asked for without one.
  const matches = picomatch(clean, { dot: true, basename: !clean.includes('/') });
  return negated ? (relative) => !matches(relative) : (relative) => matches(relative);
}

/** `./src/*.ts` and `/src/*.ts` (anchored, as in .gitignore) both mean `src/*.ts`. */
function stripLeading(pattern: string): string {
  let clean = pattern;
  while (clean.startsWith('./')) clean = clean.slice(2);
  if (clean.startsWith('/')) clean = clean.slice(1);
  return clean;
}
