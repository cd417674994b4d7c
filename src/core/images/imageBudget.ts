import type { ImageMediaType } from '../model/types';

/**
 * What an image costs and how large it may be, by the provider's published rule (Anthropic's vision docs,
 * "Evaluate image size" and "Calculate image costs": https://docs.anthropic.com/en/docs/build-with-claude/vision):
 * an image whose long edge is over 1568 px, or that is over ~1,600 tokens, is scaled down by the service,
 * keeping its aspect ratio, and then costs about width × height / 750 tokens. One image may be at most 5 MB,
 * in JPEG, PNG, GIF or WebP. Cairn scales such an image down itself before sending it (the service would, and
 * the request would carry the full bytes for nothing), so the figure it counts is the one the service bills.
 */
export const IMAGE_LIMITS = {
  longEdge: 1568,
  tokens: 1600,
  pixelsPerToken: 750,
  /** Bytes of one image as sent (before base64). */
  bytes: 5 * 1024 * 1024,
} as const;

export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export type { ImageMediaType };

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** About what an image of this size costs (the docs' formula, rounded up). */
export function imageTokens(size: ImageSize): number {
  return Math.ceil((size.width * size.height) / IMAGE_LIMITS.pixelsPerToken);
}

/** The largest size with the same aspect ratio within the long edge and the token limit; the size itself when it fits. */
export function fittedSize(size: ImageSize): ImageSize & { readonly scaled: boolean } {
  const { width, height } = size;
  const byEdge = IMAGE_LIMITS.longEdge / Math.max(width, height);
  const byTokens = Math.sqrt((IMAGE_LIMITS.tokens * IMAGE_LIMITS.pixelsPerToken) / (width * height));
  const scale = Math.min(1, byEdge, byTokens);
  if (scale >= 1) return { width, height, scaled: false };
  // The small epsilon keeps 3000 × (1568 / 3000) at 1568, not 1567.99…
  const edge = (side: number): number => Math.max(1, Math.floor(side * scale + 1e-9));
  return { width: edge(width), height: edge(height), scaled: true };
}

/** The one line an image stands for in the ledger and the chat: `[#a3f2 image shot.png 1280×720, ~1,229 tokens]`. */
export function imageBracket(id: string, name: string, size: ImageSize): string {
  return `[${id} image ${name} ${size.width}×${size.height}, ~${imageTokens(size).toLocaleString('en-US')} tokens]`;
}
