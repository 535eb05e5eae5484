import type { ModelMessage } from '@ai-sdk/provider-utils';
import { SUMMARY_HEADINGS, SUMMARY_LINE, SUMMARY_REQUEST_MARKER } from '../../model/summary-request.js';
import { toolOutputText } from '../../session/tool-output.js';
import { summaryIn } from '../../session/transcript.js';

/** A tool's output in the request is cut to this: what it said matters less than that it was called. */
const TOOL_OUTPUT_CHARS = 1500;
/** A message of the person or the agent is cut to this, so one pasted file cannot fill the request. */
const MESSAGE_CHARS = 6000;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} […${text.length - max} more characters]` : text;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\n  ');
}

/** The instructions of a summary request: the fixed structure, and what must never be lost. */
export function summarySystemPrompt(): string {
  return [
    `${SUMMARY_REQUEST_MARKER} you write the summary that takes the place of the earlier part of a conversation between a person and an AI agent, so the agent can carry on from it with no other record of what was said.`,
    'Write only the summary, in markdown, under exactly these headings in this order, each with short bullet points ("- none" when a heading has nothing):',
    ...SUMMARY_HEADINGS.map((heading) => `## ${heading}`),
    'Keep every name, number, identifier, path, date and fact the person gave, word for word. Carry over everything an earlier summary kept. Never invent anything. Write no tool calls.',
  ].join('\n');
}

/** The conversation as lines for the request: who said what, tool calls and their (cut) outputs. */
export function summaryLines(messages: readonly ModelMessage[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    const earlier = summaryIn(message);
    if (earlier !== undefined) {
      lines.push(SUMMARY_LINE.earlier, earlier, '');
      continue;
    }
    if (message.role === 'user') {
      const text = typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      lines.push(`${SUMMARY_LINE.person}${oneLine(cut(text, MESSAGE_CHARS))}`);
    } else if (message.role === 'assistant') {
      if (typeof message.content === 'string') lines.push(`${SUMMARY_LINE.assistant}${oneLine(cut(message.content, MESSAGE_CHARS))}`);
      else
        for (const part of message.content) {
          if (part.type === 'text' && part.text !== '') lines.push(`${SUMMARY_LINE.assistant}${oneLine(cut(part.text, MESSAGE_CHARS))}`);
          else if (part.type === 'tool-call')
            lines.push(`${SUMMARY_LINE.assistant}called ${part.toolName}(${cut(JSON.stringify(part.input ?? {}), TOOL_OUTPUT_CHARS)})`);
        }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const { text, error } = toolOutputText(part.output);
        lines.push(`${SUMMARY_LINE.tool}${part.toolName}${error ? ' failed' : ''}: ${oneLine(cut(text, TOOL_OUTPUT_CHARS))}`);
      }
    }
  }
  return lines;
}

/**
 * The request's prompt, in parts of at most `budgetChars` each: a conversation longer than the
 * model can read at once is summarised part by part, each part's summary carried into the next.
 */
export function summaryChunks(lines: readonly string[], budgetChars: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length > budgetChars && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** One block of what travels beside the conversation is cut to this in the request. */
const BESIDE_CHARS = 2000;

/**
 * The prompt for one part: what travels beside the conversation (the augments' blocks: the
 * tracked ask, the board, the workflow state), what the person asked to keep, the summary so
 * far, the conversation. The blocks are indented, so no line of theirs reads as the conversation's.
 */
export function summaryPrompt(chunk: readonly string[], carried: string | undefined, keepHint: string | undefined, besides: readonly string[] = []): string {
  const beside =
    besides.length > 0
      ? [
          'Sent with every call beside the conversation, and kept there whatever the summary says (write "What the person wants" in line with a tracked ask shown here; repeat none of the rest):',
          ...besides.flatMap((block) =>
            cut(block, BESIDE_CHARS)
              .split('\n')
              .map((line) => `  ${line}`),
          ),
          '',
        ]
      : [];
  return [
    ...beside,
    ...(keepHint ? [`The person asks that the summary keep: ${keepHint}`, ''] : []),
    'The conversation to summarise:',
    '',
    ...(carried !== undefined ? [SUMMARY_LINE.earlier, carried, ''] : []),
    ...chunk,
  ].join('\n');
}
