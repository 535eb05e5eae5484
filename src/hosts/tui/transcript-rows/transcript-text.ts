import chalk from 'chalk';
import type { DisplayItem } from '../display-items.js';
import type { Palette } from '../palette.js';
import { itemRows } from './item-rows.js';
import { rowText } from './styled-text.js';

interface Drawn {
  width: number;
  palette: Palette;
  level: number;
  text: string;
}

// Finished items never change; a reprint at the same width (after /clear's header, say) reuses them.
const drawnItems = new WeakMap<DisplayItem, Drawn>();

/** A transcript item as the terminal gets it, `width` columns wide: its rows, one a line. */
export function itemText(item: DisplayItem, width: number, palette: Palette): string {
  const cached = drawnItems.get(item);
  if (cached && cached.width === width && cached.palette === palette && cached.level === chalk.level) return cached.text;
  const text = itemRows(item, width, palette).map(rowText).join('\n');
  drawnItems.set(item, { width, palette, level: chalk.level, text });
  return text;
}

/** Finished items one under the other, ending with a newline, as they are printed above the live frame. */
export function transcriptText(items: readonly DisplayItem[], width: number, palette: Palette): string {
  if (items.length === 0) return '';
  return `${items.map((item) => itemText(item, width, palette)).join('\n')}\n`;
}
