/**
 * The key a path is compared by: `/`-separated, no `.` segments, `..` folded into its parent, no
 * leading `./` or trailing `/`. `./a/../b` and `b` are one file. The workspace has already refused
 * paths that escape the root, so a leading `..` left here only keeps two different inputs apart.
 */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}
