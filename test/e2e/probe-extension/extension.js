// Test-only extension: proves Cairn is installed and activates in the real extension host, without
// depending on which views or commands Cairn contributes at the time. It writes one JSON report to
// the file named by CAIRN_E2E_PROBE_FILE (the extension host inherits code-server's environment).
const fs = require('node:fs');
const vscode = require('vscode');

async function activate() {
  const file = process.env.CAIRN_E2E_PROBE_FILE;
  if (!file) return;
  const report = { at: new Date().toISOString(), vscodeVersion: vscode.version, installed: false };
  try {
    const cairn = vscode.extensions.getExtension('cairn.cairn');
    report.installed = Boolean(cairn);
    if (cairn) {
      report.version = cairn.packageJSON.version;
      report.extensionKind = cairn.extensionKind;
      report.activeBeforeProbe = cairn.isActive;
      await cairn.activate();
      report.active = cairn.isActive;
    }
    // Proves the user settings reach the extension host and that it can reach the local model server.
    const baseUrl = vscode.workspace.getConfiguration('cairn').get('baseUrl');
    report.baseUrl = baseUrl;
    if (typeof baseUrl === 'string' && baseUrl) {
      const res = await fetch(`${baseUrl}/v1/models`, { headers: { 'x-api-key': 'probe', 'anthropic-version': '2023-06-01' } });
      report.modelsStatus = res.status;
    }
  } catch (err) {
    report.error = err && err.stack ? String(err.stack) : String(err);
  }
  // Written to a temporary name first so a reader never sees half a report.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

function deactivate() {}

module.exports = { activate, deactivate };
