import { z } from 'zod';
import { defineTool, toolError, type KernelTool } from '../../kernel/tool.js';
import type { BoardStore } from './board-store.js';
import { MAX_LINE_CHARS } from './config.js';
import { mayWrite } from './line-rules.js';

export const BOARD_READ = 'board_read';
export const BOARD_WRITE = 'board_write';

const READ_DESCRIPTION =
  'Read every line of the board with its owner and text. The board is also in your system prompt at every step; ' +
  'call this when you want it as data, for instance right before deciding what to take from a queue.';

function writeDescription(store: BoardStore): string {
  const yours = store.specs.filter((spec) => mayWrite(spec.owner, 'agent')).map((spec) => spec.name);
  const theirs = store.specs.filter((spec) => !mayWrite(spec.owner, 'agent')).map((spec) => spec.name);
  return (
    'Replace the whole text of one board line (an empty text clears it). The person sees the change at once; it does not end your turn. ' +
    `Lines you may write: ${yours.length > 0 ? yours.join(', ') : 'none'}.` +
    (theirs.length > 0 ? ` Lines that belong to the person (read only for you): ${theirs.join(', ')}.` : '')
  );
}

// Module constants, so every conversation's tools share one schema (converted for the wire once).
const readSchema = z.object({});

const writeSchema = z.object({
  line: z.string().min(1, 'line must name a board line').describe('The name of the line to write.'),
  text: z
    .string()
    .max(MAX_LINE_CHARS, `text must be at most ${MAX_LINE_CHARS} characters: a board line is a short note, shorten it`)
    .describe('The new text of the line, replacing what it held. Empty clears it.'),
});

/** board_read and board_write, acting on the session's board as the agent. */
export function createBoardTools(store: BoardStore): KernelTool[] {
  return [
    defineTool({
      name: BOARD_READ,
      description: READ_DESCRIPTION,
      inputSchema: readSchema,
      execute() {
        const lines = store.lines().map((line) => ({
          line: line.name,
          owner: line.owner,
          youCanWrite: mayWrite(line.owner, 'agent'),
          text: line.text,
          ...(line.by ? { lastWrittenBy: line.by } : {}),
        }));
        return { content: JSON.stringify({ lines }, null, 2) };
      },
    }),
    defineTool({
      name: BOARD_WRITE,
      description: writeDescription(store),
      inputSchema: writeSchema,
      async execute({ line, text }) {
        const outcome = await store.write(line, text, 'agent');
        if (!outcome.ok) return toolError(`board_write refused: ${outcome.reason}.`);
        return { content: text === '' ? `Line "${line}" cleared.` : `Line "${line}" set; the person sees it now.` };
      },
    }),
  ];
}
