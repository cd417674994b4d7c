/** Env files (`envFile` of a stdio MCP server), read as dotenv writes them. */

export interface ParsedEnvFile {
  readonly values: Readonly<Record<string, string>>;
  /** By line number only: an env file's lines may hold secrets, so none is quoted. */
  readonly problems: readonly string[];
}

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * `KEY=VALUE` lines as dotenv writes them: `#` comments, an optional `export `, values in double quotes
 * (with `\n`, `\t`, `\"`, `\\` escapes, and spanning lines), single quotes (literal) or none (trimmed, a
 * ` #` starts a comment). A later line for the same key wins.
 */
export function parseEnvFile(text: string): ParsedEnvFile {
  const values = new Map<string, string>();
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    const line = lines[index]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const assignment = line.replace(/^export\s+/, '');
    const equals = assignment.indexOf('=');
    if (equals <= 0) {
      problems.push(`line ${lineNumber} is not KEY=VALUE.`);
      continue;
    }
    const key = assignment.slice(0, equals).trim();
    if (!ENV_KEY.test(key)) {
      problems.push(`line ${lineNumber}: a variable name is letters, digits and _ (not starting with a digit).`);
      continue;
    }
    let rest = assignment.slice(equals + 1).trimStart();
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      // A quoted value may continue on the next lines, up to its closing quote.
      let body = rest.slice(1);
      let close = closingQuote(body, quote);
      while (close === -1 && index + 1 < lines.length) {
        index++;
        body += `\n${lines[index]!}`;
        close = closingQuote(body, quote);
      }
      if (close === -1) {
        problems.push(`line ${lineNumber}: the value of ${key} has no closing ${quote}.`);
        continue;
      }
      const after = body.slice(close + 1).trim();
      if (after !== '' && !after.startsWith('#')) {
        problems.push(`line ${lineNumber}: text after the quoted value of ${key}; put a # before a comment.`);
        continue;
      }
      const raw = body.slice(0, close);
      values.set(key, quote === '"' ? unescapeDoubleQuoted(raw) : raw);
      continue;
    }
    const comment = /\s#/.exec(rest);
    if (comment) rest = rest.slice(0, comment.index);
    values.set(key, rest.trim());
  }
  return { values: Object.fromEntries(values), problems };
}

function closingQuote(body: string, quote: string): number {
  for (let i = 0; i < body.length; i++) {
    if (quote === '"' && body[i] === '\\') {
      i++;
      continue;
    }
    if (body[i] === quote) return i;
  }
  return -1;
}

function unescapeDoubleQuoted(raw: string): string {
  const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };
  return raw.replace(/\\(.)/g, (whole, c: string) => escapes[c] ?? whole);
}

// ---------------------------------------------------------------------------------------------------------
// Servers and inputs
