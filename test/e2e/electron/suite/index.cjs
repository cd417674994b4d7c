// Runs inside a real VS Code's extension host (an Extension Development Host started by
// @vscode/test-electron). Plain CommonJS with no test framework, so it needs no build step.
const assert = require('node:assert/strict');
const vscode = require('vscode');

async function run() {
  const cairn = vscode.extensions.getExtension('cairn.cairn');
  assert.ok(cairn, 'cairn.cairn is not loaded in the Extension Development Host');
  await cairn.activate();
  assert.equal(cairn.isActive, true, 'cairn.cairn did not activate');
  console.log(`[electron suite] cairn.cairn ${cairn.packageJSON.version} active in VS Code ${vscode.version}`);
  console.log('1 passed, 0 failed');
}

module.exports = { run };
