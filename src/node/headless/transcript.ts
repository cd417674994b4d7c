import type { AgentEvent } from '../../core/agent/events';
import { sanitizeTerminalText } from '../../core/text/terminalText';
import { childLines } from './childTranscript';

/**
 * Renders the loop's events as the model saw them: the user's text, the assistant's text and tool calls,
 * and each tool result exactly as sent (bracket and all). The CLI prints these to a terminal, so no raw
 * control character gets through (a model's or a file's `\r` or escape would rewrite what is shown):
 * escapes are removed and other controls shown as their pictures (`␍`, `␛`), as in command output.
 */
export function transcriptLines(event: AgentEvent): string[] {
  return rawLines(event).map(sanitizeTerminalText);
}

function rawLines(event: AgentEvent): string[] {
  switch (event.type) {
    case 'user_message':
      return ['', '## user', event.text];
    case 'assistant_message': {
      const lines = ['', event.incomplete ? '## assistant (interrupted)' : '## assistant'];
      for (const block of event.message.content) {
        if (block.type === 'text') lines.push(block.text);
        else if (block.type === 'thinking') lines.push(`(thinking) ${block.thinking}`);
        else if (block.type === 'tool_use') lines.push(`→ ${block.name} ${JSON.stringify(block.input)}`);
      }
      return lines;
    }
    case 'tool_finished':
      return ['', `## result of ${event.result.tool}`, event.result.text];
    case 'notice':
      return [`[${event.level}] ${event.message}`];
    case 'approval_requested':
      // A bound's question; the runner's approver answers it "stop" (no one to ask), as the results then say.
      return event.bound ? [`[bound: ${event.bound.setting}] ${event.bound.text}`] : [];
    case 'error':
      return [`[error: ${event.kind}] ${event.message}${event.advice ? ` — ${event.advice}` : ''}`];
    case 'compacted':
      // The new generation opens with exactly this: the summary, then the files table.
      return [
        '',
        `## compaction (${event.reason}, ${event.stage} stage): generation ${event.generation}, about ${event.tokensBefore} → ${event.tokensAfter} tokens`,
        event.summary,
        ...(event.filesTable ? ['', event.filesTable] : []),
      ];
    case 'done':
      return [`[done: ${event.reason}]`];
    case 'subagent_started':
    case 'subagent_event':
    case 'subagent_finished':
      return childLines(event);
    default:
      return [];
  }
}
