/**
 * The syntax tree of grep's JavaScript translation, for the linear matcher (`linearRegex.ts`): literals,
 * classes and escapes become single-character atoms (their source kept, so JavaScript itself tests them),
 * around anchors, word boundaries, concatenation, alternation and bounded or open repetition. The input
 * was already accepted by `new RegExp`, so this reads a known-valid dialect rather than validating one.
 */

export type RegexNode =
  | { readonly kind: 'atom'; readonly atom: number }
  | { readonly kind: 'bol' | 'eol' | 'wordBoundary' }
  | { readonly kind: 'concat' | 'alternation'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'repeat'; readonly node: RegexNode; readonly min: number; readonly max: number };

/** Parses one translated pattern; `atoms` holds each atom's source, indexed by `RegexNode.atom`. */
export class RegexParser {
  readonly atoms: string[] = [];
  private readonly chars: string[];
  private i = 0;

  constructor(source: string) {
    this.chars = Array.from(source);
  }

  parse(): RegexNode {
    const node = this.alternation();
    if (this.i < this.chars.length) throw new Error(`unexpected ${this.chars[this.i]} in the translated pattern`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.i + offset];
  }

  private alternation(): RegexNode {
    const items = [this.concat()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.concat());
    }
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'alternation', items };
  }

  private concat(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.chars.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified());
    return { kind: 'concat', items };
  }

  private quantified(): RegexNode {
    let node = this.atom();
    const c = this.peek();
    let bounds: [number, number] | undefined;
    if (c === '*') bounds = [0, Infinity];
    else if (c === '+') bounds = [1, Infinity];
    else if (c === '?') bounds = [0, 1];
    if (bounds) this.i++;
    else if (c === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.chars.slice(this.i, this.i + 32).join(''));
      if (counted) {
        const min = Number(counted[1]);
        const max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
        bounds = [min, max];
        this.i += counted[0].length;
      }
    }
    if (!bounds) return node;
    // Lazy or greedy, a line matches or it does not.
    if (this.peek() === '?') this.i++;
    node = { kind: 'repeat', node, min: bounds[0], max: bounds[1] };
    return node;
  }

  private atom(): RegexNode {
    const c = this.chars[this.i++];
    if (c === '(') {
      if (this.peek() === '?') {
        if (this.peek(1) === ':') this.i += 2;
        else {
          // A named group `(?<name>`: the name does not matter without captures.
          while (this.chars[this.i] !== '>') this.i++;
          this.i++;
        }
      }
      const inner = this.alternation();
      if (this.chars[this.i++] !== ')') throw new Error('unbalanced group in the translated pattern');
      return inner;
    }
    if (c === '^') return { kind: 'bol' };
    if (c === '$') return { kind: 'eol' };
    if (c === '[') {
      let text = '[';
      for (;;) {
        const d = this.chars[this.i++];
        if (d === undefined) throw new Error('unclosed class in the translated pattern');
        text += d;
        if (d === '\\') text += this.chars[this.i++] ?? '';
        else if (d === ']' && text !== '[]' && text !== '[^]') break;
      }
      return this.addAtom(text);
    }
    if (c === '\\') {
      const e = this.chars[this.i++] as string;
      if (e === 'b') return { kind: 'wordBoundary' };
      if ((e === 'u' || e === 'p' || e === 'P') && this.peek() === '{') {
        let text = `\\${e}`;
        while (this.chars[this.i - 1] !== '}') text += this.chars[this.i++];
        return this.addAtom(text);
      }
      if (e === 'u') return this.addAtom(`\\u${this.take(4)}`);
      if (e === 'x') return this.addAtom(`\\x${this.take(2)}`);
      return this.addAtom(`\\${e}`);
    }
    return this.addAtom(c as string);
  }

  private take(count: number): string {
    const text = this.chars.slice(this.i, this.i + count).join('');
    this.i += count;
    return text;
  }

  private addAtom(source: string): RegexNode {
    this.atoms.push(source);
    return { kind: 'atom', atom: this.atoms.length - 1 };
  }
}
