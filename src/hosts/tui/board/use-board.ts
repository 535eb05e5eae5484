import { useEffect, useRef, useState } from 'react';
import type { SharedBoard } from '../../../augments/board/shared-state.js';
import { boardAfterEvent, currentBoard, type BoardSource } from './board-events.js';

/**
 * The conversation's board, kept current from its event stream: the agent's writes during a turn
 * and the person's commands show as they happen. Undefined when the agent has no board.
 */
export function useBoard(source: BoardSource): SharedBoard | undefined {
  const [board, setBoard] = useState(() => currentBoard(source));
  // Folded here rather than in a state updater: a streamed reply is dozens of events a second,
  // and an updater queued for each would make React render the whole chat to find nothing changed.
  const drawn = useRef(board);
  useEffect(() => {
    const show = (next: SharedBoard | undefined) => {
      if (next === drawn.current) return;
      drawn.current = next;
      setBoard(next);
    };
    const unsubscribe = source.subscribe((event) => show(boardAfterEvent(drawn.current, event)));
    // Read again once listening: covers a change made before the subscription, and a new
    // conversation (/clear) whose board is another session's.
    show(currentBoard(source));
    return unsubscribe;
  }, [source]);
  return board;
}
