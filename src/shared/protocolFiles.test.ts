/**
 * The protocol's files, split per view (issue 34, item 15), keep their shape: `protocol.ts` is a barrel only,
 * and imports go one way (validation → core → chat, report → their views). A type added to the wrong file
 * (a report view in the chat's, a union member that needs the core) fails here, before it grows a circle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SHARED = join(__dirname);

function source(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(SHARED, file), 'utf8'), ts.ScriptTarget.Latest, false);
}

/** The protocol files a file imports or re-exports (`./x` names only; `../core/...` are core facts, allowed). */
function sharedImports(file: string): string[] {
  const found: string[] = [];
  for (const statement of source(file).statements) {
    const from =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier
        ? (statement.moduleSpecifier as ts.StringLiteral).text
        : undefined;
    if (from?.startsWith('./')) found.push(from.slice(2));
  }
  return found.sort();
}

describe('the protocol files', () => {
  it('protocol.ts only re-exports', () => {
    const statements = source('protocol.ts').statements;
    const other = statements.filter((s) => !(ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined));
    expect(other.map((s) => s.getText(source('protocol.ts')))).toEqual([]);
    expect(sharedImports('protocol.ts')).toEqual([
      'coldSendView',
      'contextView',
      'permissionModeView',
      'protocolChat',
      'protocolChatViews',
      'protocolCore',
      'protocolReport',
      'protocolValidation',
      'savingsView',
      'subagentView',
    ]);
  });

  it('import one way: validation → core → chat, report → their views', () => {
    expect(sharedImports('protocolValidation.ts')).toEqual(['coldSendView', 'permissionModeView', 'protocolChatViews', 'protocolCore']);
    expect(sharedImports('protocolCore.ts')).toEqual(['protocolChat', 'protocolReport']);
    expect(sharedImports('protocolChat.ts')).toEqual(['coldSendView', 'permissionModeView', 'protocolChatViews', 'subagentView']);
    expect(sharedImports('protocolChatViews.ts')).toEqual(['subagentView']);
    expect(sharedImports('protocolReport.ts')).toEqual(['contextView', 'keepWarmView', 'savingsView']);
    expect(sharedImports('savingsView.ts')).toEqual([]);
    expect(sharedImports('contextView.ts')).toEqual([]);
    expect(sharedImports('keepWarmView.ts')).toEqual([]);
    expect(sharedImports('permissionModeView.ts')).toEqual([]);
    expect(sharedImports('subagentView.ts')).toEqual([]);
    expect(sharedImports('coldSendView.ts')).toEqual([]);
  });
});
