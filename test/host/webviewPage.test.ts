import { describe, expect, it } from 'vitest';
import { resourceOrigin } from '../../src/host/webviewPage';

describe('resourceOrigin', () => {
  it("takes the https origin from VS Code's several-token cspSource", () => {
    expect(resourceOrigin("'self' https://*.vscode-cdn.net")).toBe('https://*.vscode-cdn.net');
    expect(resourceOrigin('https://fake.vscode-cdn.net')).toBe('https://fake.vscode-cdn.net');
    expect(resourceOrigin('vscode-webview://abc')).toBe('vscode-webview://abc');
  });
});
