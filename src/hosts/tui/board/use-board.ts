import { useEffect, useState } from 'react';
import type { SharedBoard } from '../../../augments/board/shared-state.js';
import { boardAfterEvent, currentBoard, type BoardSource } from './board-events.js';

/**
 * The conversation's board, kept current from its event stream: the agent's writes during a turn
 * and the person's commands show as they happen. Undefined when the agent has no board.
 */
export function useBoard(source: BoardSource): SharedBoard | undefined {
  const [board, setBoard] = useState(() => currentBoard(source));
  useEffect(() => {
    const unsubscribe = source.subscribe((event) => setBoard((current) => boardAfterEvent(current, event)));
    // Read again once listening: covers a change made before the subscription, and a new
    // conversation (/clear) whose board is another session's.
    setBoard(currentBoard(source));
    return unsubscribe;
  }, [source]);
  return board;
}
