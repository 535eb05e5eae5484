import type { DisplayItem } from './display-items.js';
import { clipMarkdownTail } from './markdown/markdown-blocks.js';

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

function estimatedRows(text: string, width: number): number {
  return text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / width)), 0);
}

function rowsOf(item: DisplayItem, width: number): number {
  if (item.kind === 'assistant' || item.kind === 'question') return estimatedRows(item.text, width) + (item.kind === 'assistant' && item.continued ? 0 : 1);
  if (item.kind === 'user') return estimatedRows(item.text, width) + 1;
  if (item.kind === 'system') return estimatedRows(item.text, width);
  return 1;
}

/**
 * The live items that fit on screen: the newest ones, the oldest of them cut to its end. A live
 * area taller than the terminal makes Ink redraw everything ever printed, on every frame.
 */
export function fitLiveItems(items: DisplayItem[], screen: { rows?: number; columns: number; below: number }): { items: DisplayItem[]; hidden: number } {
  if (!screen.rows || items.length === 0) return { items, hidden: 0 };
  const width = Math.max(10, screen.columns - 2);
  let budget = Math.max(3, screen.rows - screen.below);
  const shown: DisplayItem[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    const needed = rowsOf(item, width);
    if (needed <= budget) {
      shown.unshift(item);
      budget -= needed;
      continue;
    }
    if (item.kind === 'assistant' && budget >= 2) {
      // The end of a long streaming message is what is being read; all of it is printed once done.
      shown.unshift({ ...item, text: clipMarkdownTail(item.text, (budget - 2) * width) });
      return { items: shown, hidden: index };
    }
    return { items: shown, hidden: index + 1 };
  }
  return { items: shown, hidden: 0 };
}
