/** Where a request's conversation tokens go, by what produced them. */
export type TokenCategory = 'reads' | 'commandOutput' | 'editAnswers' | 'searches' | 'text';

export const CATEGORIES: readonly TokenCategory[] = ['reads', 'commandOutput', 'editAnswers', 'searches', 'text'];

/** Tool name → category, per agent vocabulary; tools not listed (and every tool call's input) count as text. */
export type ToolCategories = Readonly<Record<string, TokenCategory>>;

export const CAIRN_CATEGORIES: ToolCategories = {
  read: 'reads',
  recall: 'commandOutput',
  bash: 'commandOutput',
  edit: 'editAnswers',
  multiedit: 'editAnswers',
  write: 'editAnswers',
  apply_patch: 'editAnswers',
  grep: 'searches',
  glob: 'searches',
  list: 'searches',
};
