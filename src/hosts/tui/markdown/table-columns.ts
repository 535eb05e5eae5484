/** What a table's column holds, in columns of the terminal: its widest cell and its longest word. */
export interface ColumnMeasure {
  widest: number;
  longestWord: number;
}

/**
 * The narrowest a column may become when no word may be cut: its longest word. Past that, a
 * word longer than the column is cut, but never to less than two columns (a wide character).
 */
const CUT_FLOOR = 2;

/**
 * Each width at most `cap` and at least its floor, with the largest cap that keeps the total
 * within `room`; what a whole column less leaves over goes to the capped columns, leftmost first.
 * Undefined when even the floors take more than `room`.
 */
function capped(widths: readonly number[], floors: readonly number[], room: number): number[] | undefined {
  const total = (cap: number) => widths.reduce((sum, width, column) => sum + Math.max(floors[column], Math.min(width, cap)), 0);
  if (total(0) > room) return undefined;
  let low = 0;
  let high = Math.max(...widths);
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (total(cap) <= room) low = cap;
    else high = cap - 1;
  }
  const result = widths.map((width, column) => Math.max(floors[column], Math.min(width, low)));
  let spare = room - result.reduce((sum, width) => sum + width, 0);
  for (let column = 0; column < result.length && spare > 0; column++) {
    if (result[column] < widths[column] && result[column] === low) {
      result[column]++;
      spare--;
    }
  }
  return result;
}

/**
 * How wide each column of a table is drawn in `room` columns (the gaps between them taken out):
 * as wide as its widest cell when all fit; otherwise the widest columns shrink first, each down
 * to its longest word, so cells wrap between words (`status` stays whole while a long
 * description wraps). Only when the longest words alone do not fit are words cut, again the
 * widest columns first. A table that cannot fit even then is drawn at its floors, wider than the room.
 */
export function columnWidths(columns: readonly ColumnMeasure[], room: number): number[] {
  const widest = columns.map((column) => Math.max(1, column.widest));
  if (widest.reduce((sum, width) => sum + width, 0) <= room) return widest;
  const words = columns.map((column, index) => Math.min(widest[index], Math.max(1, column.longestWord)));
  const whole = capped(widest, words, room);
  if (whole) return whole;
  const floors = widest.map((width) => Math.min(width, CUT_FLOOR));
  return capped(words, floors, room) ?? floors;
}
