import type { HotFigure } from './runHot';
export function hotMarkdown(results: readonly HotFigure[]): string { return JSON.stringify(results); }
