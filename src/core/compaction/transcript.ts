import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';

/** Lines of a tool result shown to the summarizer after its bracket: enough to know what it held. */
const RESULT_PREVIEW_LINES = 3;
const RESULT_PREVIEW_LINE_CHARS = 200;

/**
 * The older part of a generation as text for the summarizer: user and assistant text, tool calls, and
 * each tool result as its bracket (with its id, so the summary can cite ids that recall still answers)
 * and first lines. At most `maxChars`, keeping the newest history: the oldest is dropped first, and
 * the cut is said at the top.
 */
export function renderTranscript(entries: readonly ConversationEntry[], maxChars: number): { text: string; droppedChars: number } {
  const parts = entries.map(renderEntry);
  let total = parts.reduce((n, p) => n + p.length + 2, 0);
  let first = 0;
  while (total > maxChars && first < parts.length - 1) {
    total -= parts[first]!.length + 2;
    first++;
  }
  const kept = parts.slice(first);
  let text = kept.join('\n\n');
  let droppedChars = parts.slice(0, first).reduce((n, p) => n + p.length + 2, 0);
  if (text.length > maxChars) {
    // One entry alone is over the limit: keep its end, where the latest state is.
    droppedChars += text.length - maxChars;
    text = text.slice(text.length - maxChars);
  }
  if (droppedChars > 0) text = `[${droppedChars} characters of older history left out]\n\n${text}`;
  return { text, droppedChars };
}

function renderEntry(entry: ConversationEntry): string {
  const lines: string[] = [];
  if (entry.message.role === 'user') {
    entry.message.content.forEach((block, index) => {
      if (block.type === 'text') lines.push(`${isSyntheticBlock(entry, index) ? 'Cairn' : 'User'}: ${block.text}`);
      // The summarizer reads an image's bracket (the text before it), not its bytes.
      else if (block.type === 'image') lines.push('(image)');
      else lines.push(`Result: ${resultPreview(block.content)}`);
    });
  } else {
    for (const block of entry.message.content) {
      if (block.type === 'text') lines.push(`Assistant: ${block.text}`);
      else if (block.type === 'tool_use') lines.push(`Assistant called ${block.name} ${JSON.stringify(block.input)}`);
      // Reasoning stays out: the summary is about the work, and thinking is often long.
    }
    if (entry.incomplete) lines.push('(this response was interrupted)');
  }
  return lines.join('\n');
}

function resultPreview(content: string): string {
  const lines = content.split('\n');
  const head = lines
    .slice(0, 1 + RESULT_PREVIEW_LINES)
    .map((line) => (line.length > RESULT_PREVIEW_LINE_CHARS ? `${line.slice(0, RESULT_PREVIEW_LINE_CHARS)}…` : line));
  const more = lines.length - head.length;
  return more > 0 ? `${head.join('\n')}\n(${more} more lines; recall the id for all of it)` : head.join('\n');
}
