import { Text } from 'ink';
import { memo } from 'react';
import type { DisplayItem } from './display-items.js';
import { usePalette } from './palette.js';
import { useScreenWidth } from './screen-width.js';
import { itemText } from './transcript-rows/transcript-text.js';

/**
 * Draws one transcript item, printed or live alike: its rows (transcript-rows/item-rows.ts),
 * already laid out to the screen's width, so Ink has nothing left to wrap. An item is drawn again
 * only when it changed: while a reply streams, the frame is redrawn often and the rest stands still.
 */
export const TranscriptItem = memo(function TranscriptItem({ item }: { item: DisplayItem }) {
  return <Text>{itemText(item, useScreenWidth(), usePalette())}</Text>;
});
