import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { hooksFingerprint, parseHooks, type HookCommand, type HookConfigProblem, type HookOrigin } from '../core/hooks/hookConfig';

/** The settings files hooks are read from, under a workspace folder and under the home folder. */
export const HOOK_SETTINGS_FILES = ['.cairn/settings.json', '.claude/settings.json'] as const;
/** A settings file is a few kilobytes; past this it is a problem, not read. */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/** The hooks one settings file defines, with the fingerprint an approval is tied to. */
export interface HookFile {
  /** As the user knows it: `.claude/settings.json`, `~/.claude/settings.json`. */
  readonly source: string;
  readonly path: string;
  readonly origin: HookOrigin;
  readonly hooks: readonly HookCommand[];
  readonly fingerprint: string;
  readonly problems: readonly HookConfigProblem[];
}

/**
 * Reads the hooks of every settings file that has some: each workspace folder's (only when `trusted`), then
 * the user's. A file that is not JSON is a problem (its hooks are none). Nothing here decides what runs:
 * the root asks the user about a workspace file's hooks first.
 */
export async function readHookFiles(options: { roots: readonly string[]; homeDir: string; trusted: boolean }): Promise<HookFile[]> {
  const places: { path: string; source: string; origin: HookOrigin }[] = [];
  if (options.trusted) {
    const many = options.roots.length > 1;
    for (const root of options.roots)
      for (const file of HOOK_SETTINGS_FILES)
        places.push({ path: join(root, file), source: many ? `${basename(root)}/${file}` : file, origin: 'workspace' });
  }
  for (const file of HOOK_SETTINGS_FILES) places.push({ path: join(options.homeDir, file), source: `~/${file}`, origin: 'user' });
  const out: HookFile[] = [];
  for (const place of places) {
    const text = await readSmall(place.path);
    if (text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      out.push({
        ...place,
        hooks: [],
        fingerprint: '',
        problems: [{ source: place.source, problem: 'The file is not valid JSON; its hooks are not run. Fix the JSON.' }],
      });
      continue;
    }
    const hooksValue = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).hooks : undefined;
    const parsed = parseHooks(hooksValue, place.source, place.origin);
    if (parsed.hooks.length === 0 && parsed.problems.length === 0) continue;
    out.push({ ...place, hooks: parsed.hooks, fingerprint: hooksFingerprint(parsed.hooks), problems: parsed.problems });
  }
  return out;
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(path);
    if (!stat.isFile() || stat.size > SETTINGS_MAX_BYTES) return undefined;
    return await fs.readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
