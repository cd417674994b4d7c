export { NodeWorkspace, type NodeWorkspaceOptions, type GrepEngine } from './nodeWorkspace';
export { NodeFileWatcher } from './nodeFileWatcher';
export { WorkspacePathError, WorkspaceFileError, type PathRule } from './workspaceErrors';
export { GrepPatternError } from './grepPattern';
export { GlobPatternError } from './globMatcher';
export { SearchTimeoutError, SearchCancelledError, SearchThreadError, DEFAULT_SEARCH_TIMEOUT_MS } from './searchBound';
export type { CommandLimits, CommandResult } from './commandRunner';
