import { useStdout } from 'ink';
import { memo, useEffect, useInsertionEffect, useRef, useState } from 'react';
import type { DisplayItem } from './display-items.js';
import { usePalette } from './palette.js';
import { transcriptText } from './transcript-rows/transcript-text.js';

export interface PrintedTranscriptProps {
  /** The finished items, oldest first; the list only grows while this is mounted. */
  items: DisplayItem[];
  width: number;
  /** Where text printed above the live part goes; Ink's own stdout write when absent. */
  print?: (text: string) => void;
  /** Told once what was finished at the start is out (at once when there was none). */
  onPrinted?: () => void;
  /** What is finished at the start is on the screen already (written before Ink started). */
  alreadyPrinted?: boolean;
}

/**
 * The finished transcript, each item printed once above the live part as its rows' text, the
 * rows the live frame drew it with. Nothing of it is in Ink's frame: Ink's <Static> laid each
 * print out again, drew it the moment it changed past the chat's frame-rate limit, and drew the
 * frame a second time, unchanged, once it had emptied itself (docs/performance.md).
 *
 * What is finished when printing starts (a resumed session's latest items, everything again after
 * a resize or /clear) goes out after the mount. An item finished later goes out in the commit that
 * drops it from the live part, before Ink draws that commit's frame (an insertion effect runs
 * before Ink's render, a layout effect after it): so no frame without it is ever on screen, as a
 * turn's last frame would be, `completed` under a reply not printed yet. Until that frame is drawn
 * the item shows twice, printed and live: at once, or as long as Ink's frame-rate limit holds the
 * frame back (50 ms).
 */
export const PrintedTranscript = memo(function PrintedTranscript({ items, width, print, onPrinted, alreadyPrinted = false }: PrintedTranscriptProps) {
  const palette = usePalette();
  const { write } = useStdout();
  const [printedAtOnce] = useState(items.length);
  const [opened, setOpened] = useState(printedAtOnce === 0 || alreadyPrinted);
  /** How many of the items are out. */
  const printed = useRef(printedAtOnce);
  // biome-ignore lint/correctness/useExhaustiveDependencies: printed once per mount, with what was there at the mount.
  useEffect(() => {
    if (opened) {
      onPrinted?.();
      return;
    }
    let unmounted = false;
    // After the commit, not inside it: whoever prints may look at what the mount drew.
    queueMicrotask(() => {
      if (unmounted) return;
      (print ?? write)(transcriptText(items.slice(0, printedAtOnce), width, palette));
      setOpened(true);
      onPrinted?.();
    });
    return () => {
      unmounted = true;
    };
    // Printed once per mount: a reprint mounts this again.
  }, []);
  // Until the opening is out nothing else is, so an item finished meanwhile is printed after it.
  useInsertionEffect(() => {
    if (!opened || items.length <= printed.current) return;
    (print ?? write)(transcriptText(items.slice(printed.current), width, palette));
    printed.current = items.length;
  }, [opened, items, width, palette, print, write]);
  return null;
});
