/**
 * What `@` completes: the workspace's files and the folders that hold them (a folder ends in `/`, and an
 * `@folder/` mention attaches its listing), those whose path contains the typed text, shortest first.
 */
export function mentionCandidates(files: readonly string[], query: string, limit = 50): string[] {
  const wanted = query.toLowerCase();
  const found = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) found.add(`${parts.slice(0, depth).join('/')}/`);
    found.add(file);
  }
  return [...found]
    .filter((path) => path.toLowerCase().includes(wanted))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .slice(0, limit);
}
