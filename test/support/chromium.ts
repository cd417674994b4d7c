/**
 * Debian's Chromium as the browser and real-editor suites (and the webview benchmark) launch it. The flags
 * keep it offline and quiet on these machines (issue 7's recipe): without the background-networking ones
 * it opens connections the closed network refuses.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
