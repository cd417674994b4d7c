/**
 * Claude Code's tool names and Cairn's, so a hook written for Claude Code (`"matcher": "Edit|Write"`,
 * a script checking `tool_name == "Bash"`) works on Cairn's tools. A matcher may also name Cairn's own tools.
 */
const CLAUDE_NAME: Readonly<Record<string, string>> = {
  bash: 'Bash',
  edit: 'Edit',
  multiedit: 'MultiEdit',
  write: 'Write',
  read: 'Read',
  grep: 'Grep',
  glob: 'Glob',
  list: 'LS',
  task: 'Task',
  todo: 'TodoWrite',
  web_fetch: 'WebFetch',
};

/** Claude Code has no patch tool: `apply_patch` edits and creates files, so the matchers of the edit family match it. */
const ALSO_MATCHED_AS: Readonly<Record<string, readonly string[]>> = {
  apply_patch: ['Edit', 'MultiEdit', 'Write'],
};

/** The name a hook's stdin gives the tool: Claude Code's where it has one, Cairn's otherwise. */
export function hookToolName(cairnTool: string): string {
  return CLAUDE_NAME[cairnTool] ?? cairnTool;
}

/** Whether a matcher (a regular expression over the whole name; '' or '*' for all) selects this Cairn tool. */
export function matcherSelects(matcher: string, cairnTool: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  const pattern = new RegExp(`^(?:${matcher})$`);
  const names = [cairnTool, CLAUDE_NAME[cairnTool], ...(ALSO_MATCHED_AS[cairnTool] ?? [])].filter((n): n is string => n !== undefined);
  return names.some((name) => pattern.test(name));
}
