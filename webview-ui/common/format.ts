/** Numbers as people read them in a narrow panel. */

export function formatTokens(tokens: number): string {
  if (!Number.isFinite(tokens)) return '–';
  const abs = Math.abs(tokens);
  if (abs < 1000) return String(Math.round(tokens));
  if (abs < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  if (abs < 1_000_000) return `${Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export function formatShare(share: number | null | undefined): string {
  return share === null || share === undefined || !Number.isFinite(share) ? '–' : `${Math.round(share * 100)}%`;
}

export function formatCost(usd: number | undefined): string {
  if (usd === undefined || !Number.isFinite(usd)) return '–';
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatSigned(tokens: number): string {
  return tokens > 0 ? `+${formatTokens(tokens)}` : tokens < 0 ? `−${formatTokens(-tokens)}` : '0';
}

export function formatTime(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
