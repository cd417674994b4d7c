// Test-only extension: proves Cairn is installed and activates in the real extension host, without
// depending on which views or commands Cairn contributes at the time. It writes one JSON report to
// the file named by CAIRN_E2E_PROBE_FILE (the extension host inherits code-server's environment).
const fs = require('node:fs');
const vscode = require('vscode');

/**
 * Lets time pass in the extension host (issue 31 §3: a test ages Cairn's prompt cache as an idle user would).
 * The extension host is one process for every extension, so Date.now here is Cairn's clock too. The test writes
 * the seconds the user was away to CAIRN_E2E_CLOCK_FILE; everything after happens that much later, as after a
 * laptop's sleep. The probe answers in `<file>.ack` with the seconds it applied. Never part of Cairn itself.
 */
function installClock(file) {
  const realNow = Date.now.bind(Date);
  let offsetMs = 0;
  Date.now = () => realNow() + offsetMs;
  const read = () => {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch {
      return;
    }
    const seconds = Number(text);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds * 1000 === offsetMs) return;
    offsetMs = seconds * 1000;
    fs.writeFileSync(`${file}.ack.tmp`, String(seconds));
    fs.renameSync(`${file}.ack.tmp`, `${file}.ack`);
  };
  read();
  fs.watchFile(file, { interval: 100 }, read);
}

async function activate() {
  if (process.env.CAIRN_E2E_CLOCK_FILE) installClock(process.env.CAIRN_E2E_CLOCK_FILE);
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
