import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { BOARD_STATE_KEY, parseSharedBoard } from '../../augments/board/shared-state.js';

/**
 * The board's lines as an ACP `plan`: the closest thing an editor draws to lines both sides keep
 * beside the run. Each line is one entry, `line: text`; a line with no text yet is pending, one
 * with text in progress (the board has no "done", so nothing is said to be).
 */
export function boardPlan(shared: Record<string, unknown> | undefined): SessionUpdate | undefined {
  const board = parseSharedBoard(shared?.[BOARD_STATE_KEY]);
  if (!board) return undefined;
  return {
    sessionUpdate: 'plan',
    entries: Object.entries(board).map(([name, line]) => ({
      content: line.text === '' ? name : `${name}: ${line.text}`,
      priority: 'medium',
      status: line.text === '' ? 'pending' : 'in_progress',
    })),
  };
}
