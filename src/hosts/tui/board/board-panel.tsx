import { Box, Text } from 'ink';
import { ownerMark } from '../../../augments/board/line-rules.js';
import type { SharedBoard } from '../../../augments/board/shared-state.js';
import { usePalette } from '../palette.js';
import { useBoard } from './use-board.js';
import type { BoardSource } from './board-events.js';

/** Names longer than this are cut in the panel; /board shows them whole. */
const MAX_NAME_COLUMN = 16;
const MARK_COLUMN = 5;

function fitName(name: string, width: number): string {
  return name.length > width ? `${name.slice(0, width - 1)}…` : name.padEnd(width);
}

export interface BoardPanelProps {
  board: SharedBoard;
  /** Columns available; each row is cut to fit. */
  width?: number;
  /** Blank rows above, to set the panel apart from the transcript. */
  marginTop?: number;
}

/** Rows the panel takes on screen (with one blank row above), for the live area's budget. */
export function boardPanelRows(board: SharedBoard | undefined, marginTop = 1): number {
  const lines = board ? Object.keys(board).length : 0;
  return lines === 0 ? 0 : lines + marginTop;
}

/** The board, one row a line: name, owner mark (you / agent / both), and the text cut to the width. */
export function BoardPanel({ board, width, marginTop = 0 }: BoardPanelProps) {
  const colour = usePalette();
  const entries = Object.entries(board);
  if (entries.length === 0) return null;
  const nameWidth = Math.min(MAX_NAME_COLUMN, Math.max(...entries.map(([name]) => name.length)));
  return (
    <Box flexDirection="column" width={width} marginTop={marginTop}>
      {entries.map(([name, line]) => {
        const text = line.text.replace(/\s+/g, ' ').trim();
        return (
          <Box key={name}>
            <Box flexShrink={0}>
              <Text color={colour.accent}>{fitName(name, nameWidth)}</Text>
              <Text dimColor> {ownerMark(line.owner).padEnd(MARK_COLUMN)} </Text>
            </Box>
            <Box flexGrow={1} flexShrink={1}>
              {text === '' ? <Text dimColor>(empty)</Text> : <Text wrap="truncate-end">{text}</Text>}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/** The panel fed by a conversation, set apart from the transcript; nothing when the agent has no board. */
export function LiveBoardPanel({ source, width }: { source: BoardSource; width?: number }) {
  const board = useBoard(source);
  return board ? <BoardPanel board={board} width={width} marginTop={1} /> : null;
}
