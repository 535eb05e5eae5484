import { z } from 'zod';
import type { JsonPatchOperation } from '../../kernel/events.js';
import { OWNERS } from './config.js';

/**
 * The board as clients see it: AG-UI shared state `{ board: { <line>: { owner, text, by?, at? } } }`,
 * lines in their configured order. The same shape is in `--output json` and is what the TUI draws.
 */
export const BOARD_STATE_KEY = 'board';

/** CUSTOM event sent beside each STATE_DELTA: `{ line, text, by }`. */
export const BOARD_CHANGED_EVENT = 'board.changed';

const WRITERS = ['agent', 'person'] as const;

const sharedLineSchema = z.object({
  owner: z.enum(OWNERS),
  text: z.string(),
  /** Who wrote it last; absent while the line still holds its initial text. */
  by: z.enum(WRITERS).optional(),
  at: z.string().optional(),
});

export type SharedLine = z.infer<typeof sharedLineSchema>;
export type SharedBoard = Record<string, SharedLine>;

export const boardChangeSchema = z.object({ line: z.string(), text: z.string(), by: z.enum(WRITERS) });
export type BoardChange = z.infer<typeof boardChangeSchema>;

/** The board in a state snapshot, or undefined when the value is not one. */
export function parseSharedBoard(value: unknown): SharedBoard | undefined {
  const parsed = z.record(z.string(), sharedLineSchema).safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The patch for one changed line. `add` rather than `replace`: on an object member it sets the
 * value whether or not the client already had that line (a client state sent before any snapshot).
 */
export function linePatch(name: string, line: SharedLine): JsonPatchOperation[] {
  return [{ op: 'add', path: `/${BOARD_STATE_KEY}/${escapeSegment(name)}`, value: line }];
}

function withLine(board: SharedBoard, name: string, update: (line: SharedLine | undefined) => SharedLine | undefined): SharedBoard {
  const next = update(board[name]);
  if (next === undefined) {
    const { [name]: _removed, ...rest } = board;
    return rest;
  }
  // Spreading keeps the line's place in the order; a new line goes last.
  return { ...board, [name]: next };
}

/**
 * Applies the operations of a STATE_DELTA that touch the board (`/board`, `/board/<line>`,
 * `/board/<line>/<field>`); others are someone else's state and are skipped. A value that is not
 * board-shaped leaves the board as it was rather than drawing garbage.
 */
export function applyBoardPatch(board: SharedBoard, delta: readonly JsonPatchOperation[]): SharedBoard {
  let next = board;
  for (const op of delta) {
    // The board never emits these; a client that does is not describing a board change.
    if (op.op === 'test' || op.op === 'move' || op.op === 'copy') continue;
    const [root, name, field] = op.path.split('/').slice(1).map(unescapeSegment);
    if (root !== BOARD_STATE_KEY) continue;
    if (!('value' in op)) {
      // A remove: of the whole board, or of one line.
      if (name === undefined) next = {};
      else if (field === undefined) next = withLine(next, name, () => undefined);
      continue;
    }
    const { value } = op;
    if (name === undefined) {
      next = parseSharedBoard(value) ?? next;
    } else if (field === undefined) {
      const line = sharedLineSchema.safeParse(value);
      if (line.success) next = withLine(next, name, () => line.data);
    } else {
      next = withLine(next, name, (line) => {
        if (!line) return line;
        const patched = sharedLineSchema.safeParse({ ...line, [field]: value });
        return patched.success ? patched.data : line;
      });
    }
  }
  return next;
}

/** A `board.changed` event folded in: the text and writer change, the owner stays. */
export function applyBoardChange(board: SharedBoard, change: BoardChange): SharedBoard {
  const line = board[change.line];
  if (!line || (line.text === change.text && line.by === change.by)) return board;
  return withLine(board, change.line, () => ({ ...line, text: change.text, by: change.by }));
}
