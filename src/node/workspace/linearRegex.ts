/**
 * A linear-time matcher for grep's JavaScript fallback.
 *
 * JavaScript's RegExp backtracks: `(a+)+$` over 28 characters took 2 s and doubles with each one,
 * and the fallback runs on the editor's extension host, which must never freeze. grep's dialect has
 * no backreferences or lookaround (`grepPattern.ts` refuses them, as ripgrep does), so every
 * pattern is a true regular expression and can be run as an automaton: this is a Thompson NFA
 * simulated breadth-first (Pike's VM without captures), in at most (line length) x (program size)
 * steps, whatever the pattern. grep only asks whether a line matches, so greedy and lazy
 * quantifiers are the same here.
 *
 * Why not a dependency: re2-wasm needs a WebAssembly build step in the extension bundle and re2js
 * is a large port for what this dialect needs; the parser below reads only the already-validated
 * JavaScript translation. Why not a worker with a deadline: it would bound the time but still
 * give up on the line, and shipping a worker script complicates the bundle.
 *
 * Patterns with few ways to match from one position (`pathsFrom`: no `*`, `+` or nested
 * repetition, few alternatives) still run on RegExp, which is much faster and cannot blow up there.
 *
 * Semantics are JavaScript's, exactly where it matters: each single-character atom (a literal, `.`,
 * a class, `\p{..}`) is tested by a one-character RegExp with the pattern's own flags (`su`/`sui`),
 * so case folding and Unicode properties are the engine's own; `\b` uses JavaScript's `\w` under
 * the same flags. Code points, not UTF-16 units, as in `u` mode.
 */

import { RegexParser, type RegexNode as Node } from './linearRegexParser';

/** Instructions in one compiled program; `a{1000}{1000}` and the like are refused (ripgrep has a size limit too). */
export const MAX_PROGRAM_SIZE = 100_000;

/** The pattern's repetitions compile to more than `MAX_PROGRAM_SIZE` instructions. */
export class PatternTooLargeError extends Error {
  override readonly name = 'PatternTooLargeError';
}

export interface LinearMatcher {
  /** Whether the pattern matches anywhere in `text` (one line, its `\n` removed). */
  test(text: string): boolean;
}

const enum Op {
  Atom,
  Split,
  Jump,
  LineStart,
  LineEnd,
  WordBoundary,
  Match,
}

/**
 * `source` is the JavaScript translation, already accepted by `new RegExp(source, flags)`.
 * `automatonOnly` skips the RegExp shortcut (tests compare the automaton with RegExp on every pattern).
 */
export function compileLinear(source: string, flags: string, automatonOnly = false): LinearMatcher {
  const parser = new RegexParser(source);
  const tree = parser.parse();
  // A pattern with few ways to match from one position cannot make RegExp backtrack far, and
  // RegExp is 10 to 100 times faster than the simulation below: it runs those (see `pathsFrom`).
  if (!automatonOnly && pathsFrom(tree) <= MAX_BACKTRACKING_PATHS) return new RegExp(source, flags);
  const program = new Program();
  program.emit(tree);
  program.push(Op.Match, 0, 0);
  // One test (and one cache) per distinct atom: `(bar|baz)` tests `b` once.
  const bySource = new Map<string, AtomTest>();
  const atoms = parser.atoms.map((atom) => {
    let test = bySource.get(atom);
    if (!test) bySource.set(atom, (test = new AtomTest(atom, flags)));
    return test;
  });
  return new PikeVm(program, atoms, new AtomTest('\\w', flags), startsAnchored(tree));
}

/** One single-character atom, tested by JavaScript itself, with answers cached by code point. */
class AtomTest {
  private readonly regex: RegExp;
  /** Answers for code points below 256 (most of any source file): 0 unknown, 1 no, 2 yes. */
  private readonly low = new Uint8Array(256);
  private readonly cache = new Map<number, boolean>();

  constructor(source: string, flags: string) {
    this.regex = new RegExp(`^(?:${source})$`, flags);
  }

  test(codePoint: number): boolean {
    if (codePoint < 256) {
      const known = this.low[codePoint] as number;
      if (known !== 0) return known === 2;
      const answer = this.regex.test(String.fromCodePoint(codePoint));
      this.low[codePoint] = answer ? 2 : 1;
      return answer;
    }
    let answer = this.cache.get(codePoint);
    if (answer === undefined) {
      answer = this.regex.test(String.fromCodePoint(codePoint));
      if (this.cache.size < 65_536) this.cache.set(codePoint, answer);
    }
    return answer;
  }
}

/** Ways a pattern may be tried from one start position, at most, for RegExp to be trusted with it. */
export const MAX_BACKTRACKING_PATHS = 256;

/**
 * How many ways RegExp can try to match the pattern from one start position: alternatives add up,
 * sequences multiply, `x{n,m}` of a single character gives m - n + 1. Unbounded repetition (`*`,
 * `+`, `{n,}`) and repetition of anything but one character count as unbounded. With this bounded,
 * a line of n characters costs RegExp at most n x paths x pattern steps: linear in the line.
 */
function pathsFrom(node: Node): number {
  switch (node.kind) {
    case 'atom':
    case 'bol':
    case 'eol':
    case 'wordBoundary':
      return 1;
    case 'concat':
      return node.items.reduce((product, item) => Math.min(Infinity, product * pathsFrom(item)), 1);
    case 'alternation':
      return node.items.reduce((sum, item) => sum + pathsFrom(item), 0);
    case 'repeat':
      return node.node.kind === 'atom' && node.max !== Infinity ? node.max - node.min + 1 : Infinity;
  }
}

/** A pattern whose every alternative starts with `^` can only match at the line's start. */
function startsAnchored(node: Node): boolean {
  if (node.kind === 'bol') return true;
  if (node.kind === 'concat') return node.items.length > 0 && startsAnchored(node.items[0] as Node);
  if (node.kind === 'alternation') return node.items.every(startsAnchored);
  return false;
}

class Program {
  readonly ops: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];

  get size(): number {
    return this.ops.length;
  }

  push(op: Op, a: number, b: number): number {
    if (this.ops.length >= MAX_PROGRAM_SIZE) {
      throw new PatternTooLargeError(
        `its repetitions make it too large to run (over ${MAX_PROGRAM_SIZE} steps); use smaller counts in {n,m}`,
      );
    }
    this.ops.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.ops.length - 1;
  }

  emit(node: Node): void {
    switch (node.kind) {
      case 'atom':
        this.push(Op.Atom, node.atom, 0);
        return;
      case 'bol':
        this.push(Op.LineStart, 0, 0);
        return;
      case 'eol':
        this.push(Op.LineEnd, 0, 0);
        return;
      case 'wordBoundary':
        this.push(Op.WordBoundary, 0, 0);
        return;
      case 'concat':
        for (const item of node.items) this.emit(item);
        return;
      case 'alternation': {
        const jumps: number[] = [];
        node.items.forEach((item, index) => {
          if (index < node.items.length - 1) {
            const split = this.push(Op.Split, this.size + 1, 0);
            this.emit(item);
            jumps.push(this.push(Op.Jump, 0, 0));
            this.b[split] = this.size;
          } else this.emit(item);
        });
        for (const jump of jumps) this.a[jump] = this.size;
        return;
      }
      case 'repeat': {
        for (let n = 0; n < node.min; n++) this.emit(node.node);
        if (node.max === Infinity) {
          const split = this.push(Op.Split, this.size + 1, 0);
          this.emit(node.node);
          this.push(Op.Jump, split, 0);
          this.b[split] = this.size;
          return;
        }
        const splits: number[] = [];
        for (let n = node.min; n < node.max; n++) {
          splits.push(this.push(Op.Split, this.size + 1, 0));
          this.emit(node.node);
        }
        for (const split of splits) this.b[split] = this.size;
        return;
      }
    }
  }
}

class PikeVm implements LinearMatcher {
  private readonly ops: Int32Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  /** The generation in which each instruction was last added, so each is added once per position. */
  private readonly seen: Int32Array;
  private generation = 0;
  private current: Int32Array;
  private next: Int32Array;
  private readonly stack: Int32Array;
  private matched = false;
  private end = 0;
  /** The atoms a match can start with, when no match is empty: positions none of them accepts are skipped. */
  private readonly firstAtoms: readonly AtomTest[] | null;

  constructor(
    program: Program,
    private readonly atoms: readonly AtomTest[],
    private readonly word: AtomTest,
    private readonly anchored: boolean,
  ) {
    this.ops = Int32Array.from(program.ops);
    this.a = Int32Array.from(program.a);
    this.b = Int32Array.from(program.b);
    const size = program.size;
    this.seen = new Int32Array(size);
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    // Each instruction is pushed at most once per generation, plus the two arms of a split.
    this.stack = new Int32Array(2 * size + 2);
    this.firstAtoms = this.startingAtoms();
  }

  /** Atoms reachable from the start without reading (assertions taken as passed); null if Match is. */
  private startingAtoms(): AtomTest[] | null {
    const found = new Set<number>();
    const visited = new Set<number>();
    const pending = [0];
    while (pending.length > 0) {
      const pc = pending.pop() as number;
      if (visited.has(pc)) continue;
      visited.add(pc);
      const op = this.ops[pc];
      if (op === Op.Match) return null;
      if (op === Op.Atom) found.add(this.a[pc] as number);
      else if (op === Op.Split) pending.push(this.a[pc] as number, this.b[pc] as number);
      else if (op === Op.Jump) pending.push(this.a[pc] as number);
      else pending.push(pc + 1);
    }
    return [...new Set([...found].map((atom) => this.atoms[atom] as AtomTest))];
  }

  /** Adds `start` and everything reachable from it without reading, at position `at`, to `list`. */
  private add(list: Int32Array, count: number, start: number, at: number, before: number, after: number): number {
    const { stack, seen, ops, a, b, generation } = this;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      switch (ops[pc]) {
        case Op.Atom:
          list[count++] = pc;
          break;
        case Op.Split:
          stack[top++] = b[pc] as number;
          stack[top++] = a[pc] as number;
          break;
        case Op.Jump:
          stack[top++] = a[pc] as number;
          break;
        case Op.LineStart:
          if (at === 0) stack[top++] = pc + 1;
          break;
        case Op.LineEnd:
          if (at === this.end) stack[top++] = pc + 1;
          break;
        case Op.WordBoundary:
          if ((before >= 0 && this.word.test(before)) !== (after >= 0 && this.word.test(after))) stack[top++] = pc + 1;
          break;
        case Op.Match:
          this.matched = true;
          break;
      }
    }
    return count;
  }

  /** Whether a match can start at a position holding `codePoint` (-1: the end of the line). */
  private mayStart(codePoint: number): boolean {
    return this.firstAtoms === null || (codePoint >= 0 && this.canStart(codePoint));
  }

  /** `canStart` answers for code points below 256: 0 unknown, 1 no, 2 yes. */
  private readonly startsLow = new Uint8Array(256);

  private canStart(codePoint: number): boolean {
    if (codePoint < 256 && this.startsLow[codePoint] !== 0) return this.startsLow[codePoint] === 2;
    let answer = false;
    for (const atom of this.firstAtoms as readonly AtomTest[]) {
      if (atom.test(codePoint)) {
        answer = true;
        break;
      }
    }
    if (codePoint < 256) this.startsLow[codePoint] = answer ? 2 : 1;
    return answer;
  }

  test(text: string): boolean {
    const end = text.length;
    this.end = end;
    this.matched = false;
    // Guard the generation counter against overflow on very long runs.
    if (this.generation > 0x3fff_ffff) {
      this.generation = 0;
      this.seen.fill(-1);
    }
    this.generation++;
    let at = 0;
    let here = end > 0 ? (text.codePointAt(0) as number) : -1;
    let currentCount = this.mayStart(here) ? this.add(this.current, 0, 0, 0, -1, here) : 0;
    while (!this.matched && at < end) {
      if (currentCount === 0) {
        if (this.anchored) return false;
        if (this.firstAtoms !== null) {
          // Nothing alive: jump to the next position where a match could start.
          let before = here;
          let p = at + (here > 0xffff ? 2 : 1);
          let c = p < end ? (text.codePointAt(p) as number) : -1;
          while (p < end && !this.canStart(c)) {
            before = c;
            p += c > 0xffff ? 2 : 1;
            c = p < end ? (text.codePointAt(p) as number) : -1;
          }
          if (p >= end) return false;
          this.generation++;
          currentCount = this.add(this.current, 0, 0, p, before, c);
          at = p;
          here = c;
          continue;
        }
      }
      const width = here > 0xffff ? 2 : 1;
      const following = at + width < end ? (text.codePointAt(at + width) as number) : -1;
      this.generation++;
      let nextCount = 0;
      for (let k = 0; k < currentCount && !this.matched; k++) {
        const pc = this.current[k] as number;
        if ((this.atoms[this.a[pc] as number] as AtomTest).test(here))
          nextCount = this.add(this.next, nextCount, pc + 1, at + width, here, following);
      }
      // Unanchored: a match may also start at the next position.
      if (!this.anchored && !this.matched && this.mayStart(following))
        nextCount = this.add(this.next, nextCount, 0, at + width, here, following);
      const swap = this.current;
      this.current = this.next;
      this.next = swap;
      currentCount = nextCount;
      at += width;
      here = following;
    }
    return this.matched;
  }
}
