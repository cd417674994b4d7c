/**
 * Placeholders in expectations: `{LABEL}` is the hex digits of a labelled result's id, `{sha8:PATH}`
 * the first 8 hex digits of the SHA-256 of PATH on disk now, `{{` and `}}` literal braces.
 */
export interface PlaceholderScope {
  readonly labels: ReadonlyMap<string, string>;
  readonly sha8: (path: string) => string;
}

export class PlaceholderError extends Error {}

const PATTERN = /\{\{|\}\}|\{sha8:([^{}]+)\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/**
 * In a regex an unknown `{name}` is left alone (it may be a quantifier or literal); anywhere else it
 * is an error, because a typo in a label would otherwise compare against the raw text and mislead.
 */
export function expand(text: string, scope: PlaceholderScope, inRegex = false): string {
  return text.replace(PATTERN, (whole, shaPath: string | undefined, label: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    if (shaPath !== undefined) return scope.sha8(shaPath);
    const value = scope.labels.get(label!);
    if (value !== undefined) return value;
    if (inRegex) return whole;
    throw new PlaceholderError(
      `unknown label {${label}} (labels so far: ${[...scope.labels.keys()].join(', ') || 'none'}). Write {{ and }} for literal braces.`,
    );
  });
}
