/**
 * The model id every agent in a bench run is told to use (`--model` overrides it). `claude-sonnet-5`: the newest
 * Sonnet that every pinned peer knows. The newest the SDK names (`claude-sonnet-5-5`, Cairn's default) is not in
 * opencode's, kilo's or cline's bundled model lists (measured 2026-12-06: opencode "Unexpected server error", kilo
 * "Model not found", cline assumes 128,000 output tokens and is refused), and `claude-sonnet-4-5` makes the SDK
 * print a deprecation warning on every request. Claude Code shapes its prompt by model family, so figures are
 * comparable only under one id: RESULTS.md names the id of every run.
 */
export const BENCH_MODEL = 'claude-sonnet-5';
