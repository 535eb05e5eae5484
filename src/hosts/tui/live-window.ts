import type { DisplayItem } from './display-items.js';
import { clipMarkdownTail } from './markdown/markdown-blocks.js';
import { COLOUR_PALETTE, type Palette } from './palette.js';
import { itemText } from './transcript-rows/transcript-text.js';

/** Rows below the live items besides the input's own lines: margin, rules, hint, status, slack. */
export const FRAME_ROWS = 6;

/**
 * How the screen's rows are shared: the input gets up to half (a long paste scrolls inside it),
 * and `below` is what the live items must leave free for the input, the command list and status.
 */
export function screenBudget(rows: number | undefined, inputText: string, menuItems: number): { inputLines?: number; below: number } {
  if (!rows) return { below: 0 };
  const inputLines = Math.max(3, Math.floor(rows / 2) - FRAME_ROWS);
  // Two more for the "… more lines" hints of a clipped input.
  const inputRows = Math.min(inputText.split('\n').length, inputLines) + 2;
  const menuRows = menuItems > 0 ? Math.min(menuItems, 8) + 1 : 0;
  return { inputLines, below: FRAME_ROWS + inputRows + menuRows };
}

/**
 * Rows an item takes on screen: its own rows, the ones the live frame draws, through the same
 * cache the frame draws them from (so an item is laid out once per frame, not twice). An
 * estimate from the text's length was not enough: a list of short lines, markdown's own rows,
 * made a streaming reply taller than the terminal, and then Ink clears the screen, erasing what
 * was printed above.
 */
function drawnRows(item: DisplayItem, width: number, palette: Palette): number {
  const text = itemText(item, width, palette);
  let rows = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) rows++;
  return rows;
}

/**
 * How many characters of a reply's end can matter to `rows` rows: a row shows at most `width`
 * of them, and markup the row hides (`**`, a link's address, a table's pipes) seldom more than
 * doubles that. A long reply is cut to this before it is laid out, so a frame's work follows the
 * screen's size, never the reply's length.
 */
function tailChars(rows: number, width: number): number {
  return rows * width * 3;
}

/**
 * How many characters of the streaming reply's end the last frame showed. The next frame, a few
 * words longer, starts its search there: usually one layout finds the end that fits, where a
 * search from the screen's size took three or four, one of them three times as long.
 */
let lastClip: { id: string; chars: number } | undefined;

/**
 * The end of a streaming reply that fits in `rows`: cut at a line by characters, shorter each
 * try in proportion to how many rows it still overflows by, then, when rows are left empty, a
 * few tries longer. Undefined when not even a line fits.
 */
function clipToRows(item: DisplayItem & { kind: 'assistant' }, rows: number, width: number, palette: Palette): DisplayItem | undefined {
  const longest = Math.min(item.text.length, tailChars(rows, width));
  const attempt = (chars: number) => {
    const clipped = { ...item, text: clipMarkdownTail(item.text, chars) };
    return { chars, clipped, drawn: drawnRows(clipped, width, palette) };
  };
  let chars = Math.min(longest, lastClip?.id === item.id ? lastClip.chars : rows * width);
  // The fewest characters known to be too tall.
  let tooLong = longest + 1;
  let fitted: ReturnType<typeof attempt> | undefined;
  while (chars > 0) {
    const tried = attempt(chars);
    if (tried.drawn <= rows) {
      fitted = tried;
      break;
    }
    tooLong = chars;
    chars = Math.min(chars - 1, Math.floor((Math.min(chars, tried.clipped.text.length) * rows) / tried.drawn));
  }
  if (!fitted) return undefined;
  // Rows left empty (short lines gave way to long ones): a few tries longer, never past what was too tall.
  for (let step = 0; step < 4 && fitted.drawn < rows && tooLong - fitted.chars > 1; step++) {
    const proportional = Math.floor((fitted.chars * rows) / Math.max(1, fitted.drawn));
    const guess = tooLong > longest ? Math.min(longest, proportional) : Math.floor((fitted.chars + tooLong) / 2);
    const tried = attempt(guess);
    if (tried.drawn <= rows) fitted = tried;
    else tooLong = guess;
  }
  lastClip = { id: item.id, chars: fitted.chars };
  return fitted.clipped;
}

/**
 * The live items that fit on screen: the newest ones, the oldest of them cut to its end. A live
 * area taller than the terminal makes Ink redraw everything ever printed, on every frame.
 */
export function fitLiveItems(
  items: DisplayItem[],
  screen: { rows?: number; columns: number; below: number },
  palette: Palette = COLOUR_PALETTE,
): { items: DisplayItem[]; hidden: number } {
  if (!screen.rows || items.length === 0) return { items, hidden: 0 };
  const width = Math.max(10, screen.columns);
  // One row stays free for the "… more above" line.
  let budget = Math.max(3, screen.rows - screen.below - 1);
  const shown: DisplayItem[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const whole = items[index];
    // A reply longer than the rows left could hold even without markup is cut to its end at once.
    const needed = whole.kind === 'assistant' && whole.text.length > budget * width ? Number.POSITIVE_INFINITY : drawnRows(whole, width, palette);
    if (needed <= budget) {
      shown.unshift(whole);
      budget -= needed;
      continue;
    }
    // The end of a long streaming message is what is being read; all of it is printed once done.
    const clipped = whole.kind === 'assistant' && budget >= 2 ? clipToRows(whole, budget, width, palette) : undefined;
    if (clipped) {
      shown.unshift(clipped);
      return { items: shown, hidden: index };
    }
    return { items: shown, hidden: index + 1 };
  }
  return { items: shown, hidden: 0 };
}
