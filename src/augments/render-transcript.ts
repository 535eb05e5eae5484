import type { ModelMessage } from '@ai-sdk/provider-utils';
import { jsonText, toolOutputText } from '../session/tool-output.js';

/** One message or tool result is cut past this; a long file dump says little about what was asked. */
export const MAX_PART_CHARS = 2000;
/** The transcript handed to an evaluator (userAsk's, goal's) keeps its most recent messages up to this size. */
export const MAX_TRANSCRIPT_CHARS = 24_000;

function cut(text: string, max = MAX_PART_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}… [cut]` : trimmed;
}

/** One message as lines; reasoning is left out, the evaluator judges what was said and done. */
function renderMessage(message: ModelMessage): string[] {
  if (message.role === 'system') return [];
  if (typeof message.content === 'string') return message.content.trim() === '' ? [] : [`[${message.role}] ${cut(message.content)}`];
  const lines: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        if (part.text.trim() !== '') lines.push(`[${message.role}] ${cut(part.text)}`);
        break;
      case 'tool-call':
        lines.push(`[tool call ${part.toolName}] ${cut(jsonText(part.input))}`);
        break;
      case 'tool-result': {
        const { text, error } = toolOutputText(part.output);
        lines.push(`[tool result ${part.toolName}${error ? ', error' : ''}] ${cut(text)}`);
        break;
      }
      case 'image':
      case 'file':
        lines.push(`[${message.role}] [attached ${part.type}]`);
        break;
      default:
        break;
    }
  }
  return lines;
}

/**
 * The conversation as plain text for the evaluator, newest messages kept when it is too long
 * (the latest turn is what is judged).
 */
export function renderTranscript(messages: readonly ModelMessage[], budget = MAX_TRANSCRIPT_CHARS): string {
  const blocks = messages.map((message) => renderMessage(message).join('\n')).filter((block) => block !== '');
  const kept: string[] = [];
  let size = 0;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (size + blocks[i].length > budget && kept.length > 0) {
      kept.unshift(`[${i + 1} earlier message${i === 0 ? '' : 's'} left out]`);
      break;
    }
    kept.unshift(blocks[i]);
    size += blocks[i].length + 1;
  }
  return kept.join('\n');
}
