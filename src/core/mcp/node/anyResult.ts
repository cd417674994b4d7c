import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/**
 * A result schema that accepts whatever the server answered. The SDK's own schemas reject a whole
 * `tools/list` for one malformed tool, or a whole `tools/call` result for one unknown content type; Cairn
 * reads servers' answers as untrusted input itself (`listedToolsPage`, `mcpCallResult`), entry by entry.
 */
export const ANY_RESULT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'cairn', validate: (value: unknown) => ({ value }) },
};
