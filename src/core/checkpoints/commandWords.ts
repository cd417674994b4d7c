/**
 * The words of a shell command that may name a file it touches, for the note before its approval (what
 * a checkpoint will not keep). A rough reading, never a parser: it errs on naming too few, so the note
 * says what it knows and the general bounds cover the rest. Quotes are taken off; options (`-rf`),
 * redirections' operators, variables (`$X`), globs and command substitutions are skipped, since what
 * they name is only known when the command runs.
 */
export function pathWordsOf(command: string): string[] {
  const words: string[] = [];
  // Words split at blanks and at the shell's operators (`;`, `&&`, `|`, `>`, `<`, parentheses).
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s;&|<>()"']+)/g;
  for (const match of command.matchAll(pattern)) {
    const word = match[1] ?? match[2] ?? match[3] ?? '';
    if (word === '' || word.startsWith('-') || /[$`*?[\]{}]/.test(word) || word.includes('=')) continue;
    // A command's own name (`rm`, `mv`) is a word too; it is not a file here unless it names one.
    if (!words.includes(word)) words.push(word);
  }
  return words.slice(0, MAX_WORDS);
}

/** At most this many words are looked at (a command that names more is covered by the general note). */
const MAX_WORDS = 64;
