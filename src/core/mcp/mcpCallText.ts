import type { ApprovalDetail } from '../agent/approval';
import { showHidden } from '../text/visibleText';

/** The approval prompt of an MCP call: which server and tool, and every argument (an MCP tool's effect is only known by them). */
export function mcpApprovalDetail(described: { server: string; tool: string }, input: unknown): ApprovalDetail {
  return { mcp: described, arguments: JSON.stringify(input ?? {}, null, 2) };
}

/** The one-line summary of an MCP call for the tool line: `server tool {"a":1}`, cut to a line. */
export function mcpCallSummary(described: { server: string; tool: string }, input: unknown): string {
  const args = JSON.stringify(input ?? {});
  const line = showHidden(`${described.server} ${described.tool} ${args === '{}' ? '' : args}`)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
