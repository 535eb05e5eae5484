import { breakLine, textWidth } from './transcript-rows/row-layout.js';

/** One row of a line being typed: the characters it holds and the ones it draws, as offsets into the line. */
export interface EditedRow {
  start: number;
  /** Where the next row starts; the spaces between `shownEnd` and here are the break's. */
  end: number;
  /** What fits on screen: the row's words and as many of the break's spaces as there is room for. */
  shownEnd: number;
}

/**
 * The line being typed wrapped at words to `width` columns, as the transcript wraps (breakLine):
 * every character in a row, the spaces at a break kept at the end of the row above, so the next
 * row starts with its word, never with a space (Ink's own wrapping moves that space down). Words
 * fill a column less than the width: the last column is where the break's space, or the cursor
 * after a full row, is drawn.
 */
export function editedRows(line: string, width: number): EditedRow[] {
  const columns = Math.max(2, width);
  const breaks = breakLine(line, columns - 1);
  const rows: EditedRow[] = [];
  let full = false;
  breaks.forEach(([start, wordsEnd], index) => {
    const end = index + 1 < breaks.length ? breaks[index + 1][0] : line.length;
    let shownEnd = wordsEnd;
    let used = textWidth(line.slice(start, shownEnd));
    // The break's spaces, one column each, for as long as the row has room.
    while (shownEnd < end && used < columns) {
      shownEnd++;
      used++;
    }
    rows.push({ start, end, shownEnd });
    full = used >= columns;
  });
  // Spaces typed up to the screen's edge: the cursor after them starts the next row, as the next word will.
  if (full) rows.push({ start: line.length, end: line.length, shownEnd: line.length });
  return rows;
}

/**
 * Which row of `rows` draws the cursor at `cursor`, and where in it: the row holding it, the
 * start of a row being the row's own (not the end of the row above). A cursor on a break's space
 * past the screen's edge is drawn on the last space that shows.
 */
export function cursorInRows(rows: readonly EditedRow[], cursor: number): { row: number; at: number } {
  let row = rows.findIndex((candidate) => cursor >= candidate.start && cursor < candidate.end);
  if (row < 0) row = rows.length - 1;
  const { shownEnd } = rows[row];
  const last = row === rows.length - 1;
  // The last row's end is where the cursor sits after the text, drawn as a blank.
  const at = cursor < shownEnd || (last && cursor === shownEnd) ? cursor : Math.max(rows[row].start, shownEnd - 1);
  return { row, at };
}
