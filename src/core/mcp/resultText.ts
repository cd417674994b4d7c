import type { McpCallResult, McpContent } from './types';

/** Bytes of base64 data, for naming a binary content's size without decoding it. */
function base64Bytes(data: string): number {
  const trimmed = data.replace(/\s+/g, '');
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  return bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function contentText(content: McpContent): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
    case 'audio':
      return `[${content.type} ${content.mimeType}, ${size(base64Bytes(content.data))}: not shown]`;
    case 'resource': {
      const { uri, mimeType, text, blob } = content.resource;
      if (text !== undefined) return `[resource ${uri}${mimeType ? ` ${mimeType}` : ''}]\n${text}`;
      return `[resource ${uri}${mimeType ? ` ${mimeType}` : ''}, ${size(base64Bytes(blob ?? ''))}: binary, not shown]`;
    }
    case 'resource_link':
      return `[resource link ${content.uri}${content.name ? ` (${content.name})` : ''}${content.mimeType ? ` ${content.mimeType}` : ''}]`;
    case 'unknown':
      return `[content of a kind Cairn does not show: ${content.original.slice(0, 200)}]`;
  }
}

/**
 * A tool result as the text the ledger stores and caps: text and text resources as they are, each binary
 * content named with its type and size, the structured content as JSON when there is nothing else.
 */
export function mcpResultText(result: McpCallResult): string {
  const parts = result.content.map(contentText);
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const text = parts.join('\n');
  return text.length > 0 ? text : '(no output)';
}
