/** The hot-path figures as one Markdown table; ratios are what compares between runs. */
import type { HotFigure } from './figure';

function amount(value: number, unit: string | undefined): string {
  if (unit) return `${value.toFixed(1)} ${unit}`;
  return value >= 100 ? `${value.toFixed(0)} ms` : value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(0)} µs`;
}

export function hotMarkdown(figures: readonly HotFigure[]): string {
  const out = ['| group | work | measured | baseline (beside it) | ratio | goal | met | note |', '|---|---|---:|---|---:|---|:---:|---|'];
  for (const f of figures) {
    const ratio = Number.isFinite(f.ratio) ? `${f.ratio < 0.01 ? f.ratio.toExponential(1) : f.ratio.toFixed(2)}×` : 'n/a';
    const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
    out.push(
      `| ${f.group} | ${f.name} | ${amount(f.measured, f.unit)} | ${f.baselineLabel}: ${amount(f.baseline, f.unit)} | ${ratio} | ${f.goal ?? ''} | ${met} | ${f.note ?? ''} |`,
    );
  }
  return `${out.join('\n')}\n`;
}
