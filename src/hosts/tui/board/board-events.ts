import {
  BOARD_CHANGED_EVENT,
  BOARD_STATE_KEY,
  applyBoardChange,
  applyBoardPatch,
  boardChangeSchema,
  parseSharedBoard,
  type SharedBoard,
} from '../../../augments/board/shared-state.js';
import type { KernelEvent } from '../../../kernel/events.js';

/** What the board hook needs of a conversation; a Conversation is one. */
export interface BoardSource {
  subscribe(listener: (event: KernelEvent) => void): () => void;
  sharedState(): Record<string, unknown> | undefined;
}

/** The board as the conversation holds it now; undefined when no board augment is on. */
export function currentBoard(source: BoardSource): SharedBoard | undefined {
  return parseSharedBoard(source.sharedState()?.[BOARD_STATE_KEY]);
}

function touchesBoard(path: string): boolean {
  return path === `/${BOARD_STATE_KEY}` || path.startsWith(`/${BOARD_STATE_KEY}/`);
}

/**
 * One event folded into the drawn board: a snapshot replaces it, a delta patches it, a
 * `board.changed` sets one line's text. Other events return the same object, so React skips a redraw.
 */
export function boardAfterEvent(board: SharedBoard | undefined, event: KernelEvent): SharedBoard | undefined {
  switch (event.type) {
    case 'STATE_SNAPSHOT':
      return BOARD_STATE_KEY in event.snapshot ? (parseSharedBoard(event.snapshot[BOARD_STATE_KEY]) ?? board) : board;
    case 'STATE_DELTA':
      if (!event.delta.some((op) => touchesBoard(op.path))) return board;
      return applyBoardPatch(board ?? {}, event.delta);
    case 'CUSTOM': {
      if (event.name !== BOARD_CHANGED_EVENT || !board) return board;
      const change = boardChangeSchema.safeParse(event.value);
      return change.success ? applyBoardChange(board, change.data) : board;
    }
    default:
      return board;
  }
}
