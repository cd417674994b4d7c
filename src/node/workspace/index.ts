export { NodeWorkspace, type NodeWorkspaceOptions, type GrepEngine } from './nodeWorkspace';
export { NodeFileWatcher } from './nodeFileWatcher';
export { WorkspacePathError, WorkspaceFileError, type PathRule } from './workspaceErrors';
export { GrepPatternError } from './grepPattern';
export { GlobPatternError } from './globMatcher';
export type { CommandLimits, CommandResult } from './commandRunner';
