import type { McpCallResult, McpContent } from './types';

/** Longest JSON kept of a content block of a type Cairn does not know. */
export const MAX_UNKNOWN_CONTENT_CHARS = 2_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function unknownContent(block: unknown): McpContent {
  let json: string;
  try {
    json = JSON.stringify(block) ?? String(block);
  } catch {
    json = String(block);
  }
  return json.length > MAX_UNKNOWN_CONTENT_CHARS
    ? { type: 'unknown', original: json.slice(0, MAX_UNKNOWN_CONTENT_CHARS), truncated: true }
    : { type: 'unknown', original: json };
}

/** One content block as the protocol defines it; anything else (or a known type with missing fields) is `unknown`. */
export function mcpContent(block: unknown): McpContent {
  if (!isRecord(block)) return unknownContent(block);
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return { type: 'text', text: block.text };
      break;
    case 'image':
    case 'audio':
      if (typeof block.data === 'string' && typeof block.mimeType === 'string') {
        return { type: block.type, mimeType: block.mimeType, data: block.data };
      }
      break;
    case 'resource': {
      const resource = block.resource;
      if (isRecord(resource) && typeof resource.uri === 'string') {
        const mimeType = optionalString(resource.mimeType);
        const text = optionalString(resource.text);
        const blob = optionalString(resource.blob);
        return {
          type: 'resource',
          resource: {
            uri: resource.uri,
            ...(mimeType !== undefined ? { mimeType } : {}),
            ...(text !== undefined ? { text } : {}),
            ...(blob !== undefined ? { blob } : {}),
          },
        };
      }
      break;
    }
    case 'resource_link':
      if (typeof block.uri === 'string') {
        const name = optionalString(block.name);
        const mimeType = optionalString(block.mimeType);
        return {
          type: 'resource_link',
          uri: block.uri,
          ...(name !== undefined ? { name } : {}),
          ...(mimeType !== undefined ? { mimeType } : {}),
        };
      }
      break;
  }
  return unknownContent(block);
}

/**
 * A `tools/call` result read as untrusted input, or `undefined` when it is not a result at all (not an
 * object, or `content` not a list): the caller reports that as a protocol error.
 */
export function mcpCallResult(result: unknown): McpCallResult | undefined {
  if (!isRecord(result)) return undefined;
  const content = result.content ?? [];
  if (!Array.isArray(content)) return undefined;
  return {
    content: content.map(mcpContent),
    isError: result.isError === true,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
  };
}
