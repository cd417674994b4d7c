'use strict';
// Visits every node of an ESTree tree as acorn 8.19 builds it (ES2025 and JSX), parents before children,
// children in source order. acorn-walk is not a dependency here, so the child keys are listed per type
// from what acorn's parser sets; a type missing from the table is an error, not a silently skipped subtree.
const KEYS = {
  Program: ['body'],
  // statements
  ExpressionStatement: ['expression'], BlockStatement: ['body'], StaticBlock: ['body'], EmptyStatement: [],
  DebuggerStatement: [], WithStatement: ['object', 'body'], ReturnStatement: ['argument'],
  LabeledStatement: ['label', 'body'], BreakStatement: ['label'], ContinueStatement: ['label'],
  IfStatement: ['test', 'consequent', 'alternate'], SwitchStatement: ['discriminant', 'cases'],
  SwitchCase: ['test', 'consequent'], ThrowStatement: ['argument'], TryStatement: ['block', 'handler', 'finalizer'],
  CatchClause: ['param', 'body'], WhileStatement: ['test', 'body'], DoWhileStatement: ['body', 'test'],
  ForStatement: ['init', 'test', 'update', 'body'], ForInStatement: ['left', 'right', 'body'],
  ForOfStatement: ['left', 'right', 'body'],
  FunctionDeclaration: ['id', 'params', 'body'], VariableDeclaration: ['declarations'], VariableDeclarator: ['id', 'init'],
  ClassDeclaration: ['id', 'superClass', 'body'], ClassExpression: ['id', 'superClass', 'body'], ClassBody: ['body'],
  MethodDefinition: ['key', 'value'], PropertyDefinition: ['key', 'value'], PrivateIdentifier: [],
  // modules
  ImportDeclaration: ['specifiers', 'source', 'attributes'], ImportSpecifier: ['imported', 'local'],
  ImportDefaultSpecifier: ['local'], ImportNamespaceSpecifier: ['local'], ImportAttribute: ['key', 'value'],
  ExportNamedDeclaration: ['declaration', 'specifiers', 'source', 'attributes'], ExportSpecifier: ['local', 'exported'],
  ExportDefaultDeclaration: ['declaration'], ExportAllDeclaration: ['exported', 'source', 'attributes'],
  ImportExpression: ['source', 'options'], MetaProperty: ['meta', 'property'],
  // expressions
  Identifier: [], Literal: [], ThisExpression: [], Super: [], ArrayExpression: ['elements'],
  ObjectExpression: ['properties'], Property: ['key', 'value'], FunctionExpression: ['id', 'params', 'body'],
  ArrowFunctionExpression: ['params', 'body'], UnaryExpression: ['argument'], UpdateExpression: ['argument'],
  BinaryExpression: ['left', 'right'], LogicalExpression: ['left', 'right'], AssignmentExpression: ['left', 'right'],
  ConditionalExpression: ['test', 'consequent', 'alternate'], CallExpression: ['callee', 'arguments'],
  NewExpression: ['callee', 'arguments'], MemberExpression: ['object', 'property'], ChainExpression: ['expression'],
  SequenceExpression: ['expressions'], YieldExpression: ['argument'], AwaitExpression: ['argument'],
  TemplateLiteral: ['quasis', 'expressions'], TaggedTemplateExpression: ['tag', 'quasi'], TemplateElement: [],
  SpreadElement: ['argument'], ParenthesizedExpression: ['expression'],
  // patterns
  ObjectPattern: ['properties'], ArrayPattern: ['elements'], RestElement: ['argument'], AssignmentPattern: ['left', 'right'],
  // JSX (vendor/acorn-jsx)
  JSXElement: ['openingElement', 'children', 'closingElement'], JSXOpeningElement: ['name', 'attributes'],
  JSXClosingElement: ['name'], JSXFragment: ['openingFragment', 'children', 'closingFragment'], JSXOpeningFragment: [],
  JSXClosingFragment: [], JSXAttribute: ['name', 'value'], JSXSpreadAttribute: ['argument'], JSXIdentifier: [],
  JSXNamespacedName: ['namespace', 'name'], JSXMemberExpression: ['object', 'property'], JSXText: [],
  JSXExpressionContainer: ['expression'], JSXEmptyExpression: [],
};

/** Calls `visitors[node.type](node, ancestors)` (and `visitors.enter`, if given) for every node under `root`. */
function walk(root, visitors, keys = KEYS) {
  const ancestors = [];
  const visit = (node) => {
    const childKeys = keys[node.type];
    if (!childKeys) throw new Error(`walk: no child keys for node type ${node.type} at ${node.start}`);
    visitors.enter?.(node, ancestors);
    visitors[node.type]?.(node, ancestors);
    ancestors.push(node);
    for (const key of childKeys) {
      const value = node[key];
      for (const child of Array.isArray(value) ? value : [value]) if (child) visit(child);
    }
    ancestors.pop();
  };
  visit(root);
}

module.exports = { walk, KEYS };
