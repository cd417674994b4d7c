import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';

/**
 * The summarized history in readable form, oldest first: user and assistant text and one line per tool
 * call with its result's bracket. Result bodies stay in the journal (recall shows them); reasoning is left out.
 */
export function renderHistory(entries: readonly ConversationEntry[], heading: string): string {
  const out: string[] = [`## ${heading}`, ''];
  for (const entry of entries) {
    const message = entry.message;
    if (message.role === 'user') {
      message.content.forEach((block, index) => {
        if (block.type === 'text') out.push(`**${isSyntheticBlock(entry, index) ? 'Cairn' : 'User'}:** ${block.text}`, '');
        // An image's bracket is the text before it; its bytes stay in the journal.
        else if (block.type === 'image') out.push('- (image)');
        else out.push(`- result ${firstLine(block.content)}${block.is_error ? ' (error)' : ''}`);
      });
    } else {
      for (const block of message.content) {
        if (block.type === 'text') out.push(`**Assistant:** ${block.text}`, '');
        else if (block.type === 'tool_use') out.push(`- call \`${block.name}\` ${JSON.stringify(block.input)}`);
      }
      if (entry.incomplete) out.push('_(interrupted)_', '');
    }
  }
  out.push('');
  return `${out.join('\n')}\n`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
