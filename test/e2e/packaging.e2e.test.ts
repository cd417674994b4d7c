// The .vsix that users and the real-editor suite install: only the allowlisted files go in
// (.vscodeignore), and what the manifest points at is there.
import { describe, expect, inject, it } from 'vitest';
import { zipEntries } from './zipEntries';

const environment = inject('e2eEnvironment');

describe.skipIf(!environment.available)('out/cairn.vsix', () => {
  const entries = environment.available ? zipEntries(environment.cairnVsix) : [];

  it('holds only dist/, media/, package.json, the readme and the licence', () => {
    const outside = entries
      .filter((e) => e.startsWith('extension/'))
      .filter((e) => !/^extension\/(dist\/|media\/|package\.json$|readme\.md$|LICENSE\.txt$)/i.test(e));
    expect(outside).toEqual([]);
    expect(entries.some((e) => e.includes('node_modules/') || e.startsWith('extension/src/'))).toBe(false);
  });

  it('holds the extension bundle the manifest names, the manifest and the MIT licence', () => {
    expect(entries).toEqual(
      expect.arrayContaining(['extension.vsixmanifest', 'extension/package.json', 'extension/dist/extension.js', 'extension/LICENSE.txt']),
    );
  });

  it("holds the search thread's entry beside the bundle (glob and grep start it from there)", () => {
    expect(entries).toContain('extension/dist/searchWorker.js');
  });

  it('holds the image scaler beside the bundle (loaded from there only when an image must be scaled)', () => {
    expect(entries).toContain('extension/dist/imageScaler.js');
  });

  it('holds the webview bundle and its one stylesheet, bundled from the CSS beside each component (issue 34, item 15)', () => {
    expect(entries).toEqual(expect.arrayContaining(['extension/dist/webview.js', 'extension/dist/webview.css']));
  });
});
