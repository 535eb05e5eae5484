import chalk from 'chalk';
import { renderToString } from 'ink';
import type { DisplayItem } from '../display-items.js';
import { PaletteProvider, type Palette } from '../palette.js';
import { ScreenWidthProvider } from '../screen-width.js';
import { TranscriptItem } from '../transcript-item.js';
import { itemRows } from './item-rows.js';
import { rowText } from './styled-rows.js';

interface Drawn {
  width: number;
  palette: Palette;
  level: number;
  text: string;
}

// Finished items never change; a reprint at the same width (after /clear's header, say) reuses them.
const drawnItems = new WeakMap<DisplayItem, Drawn>();

/**
 * A finished item as the terminal gets it, `width` columns wide: its own rows where
 * print/item-rows.ts knows them, else Ink's drawing of the same component.
 */
export function itemText(item: DisplayItem, width: number, palette: Palette): string {
  const cached = drawnItems.get(item);
  if (cached && cached.width === width && cached.palette === palette && cached.level === chalk.level) return cached.text;
  const rows = itemRows(item, width, palette);
  const text =
    rows !== undefined
      ? rows.map(rowText).join('\n')
      : renderToString(
          <PaletteProvider palette={palette}>
            <ScreenWidthProvider columns={width}>
              <TranscriptItem item={item} />
            </ScreenWidthProvider>
          </PaletteProvider>,
          { columns: width },
        );
  drawnItems.set(item, { width, palette, level: chalk.level, text });
  return text;
}

/** Finished items one under the other, ending with a newline: what Ink's <Static> would print for them. */
export function transcriptText(items: readonly DisplayItem[], width: number, palette: Palette): string {
  if (items.length === 0) return '';
  return `${items.map((item) => itemText(item, width, palette)).join('\n')}\n`;
}
