import { Text } from 'ink';
import type { DisplayItem } from './display-items.js';
import { usePalette } from './palette.js';
import { useScreenWidth } from './screen-width.js';
import { itemText } from './transcript-rows/transcript-text.js';

/**
 * Draws one transcript item, printed or live alike: its rows (transcript-rows/item-rows.ts),
 * already laid out to the screen's width, so Ink has nothing left to wrap.
 */
export function TranscriptItem({ item }: { item: DisplayItem }) {
  return <Text>{itemText(item, useScreenWidth(), usePalette())}</Text>;
}
