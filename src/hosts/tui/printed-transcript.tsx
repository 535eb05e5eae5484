import { Static, useStdout } from 'ink';
import { memo, useEffect, useMemo, useState } from 'react';
import type { DisplayItem } from './display-items.js';
import { usePalette } from './palette.js';
import { transcriptText } from './transcript-rows/transcript-text.js';
import { TranscriptItem } from './transcript-item.js';

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

const NONE: DisplayItem[] = [];

/**
 * The finished transcript, each item printed once above the live part. What is already finished
 * when printing starts (a resumed session's latest items, everything again after a resize or
 * /clear) is printed at once as text, the items' rows: laid out through Ink's <Static>, 2,000
 * messages took seconds (docs/performance.md). Items that finish later go through <Static>, a few
 * at a time, drawn with the frame that drops them from the live part.
 *
 * Memoised: Ink draws a commit that touches <Static> at once, past its frame-rate limit, so drawn
 * again with the whole chat on each streamed chunk it made every frame of a stream one drawn at once.
 */
export const PrintedTranscript = memo(function PrintedTranscript({ items, width, print, onPrinted, alreadyPrinted = false }: PrintedTranscriptProps) {
  const palette = usePalette();
  const { write } = useStdout();
  const [printedAtOnce] = useState(items.length);
  const [opened, setOpened] = useState(printedAtOnce === 0 || alreadyPrinted);
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
  // Until then nothing reaches <Static>, so an item finished meanwhile is printed after them.
  const later = useMemo(() => (opened ? items.slice(printedAtOnce) : NONE), [opened, items, printedAtOnce]);
  return (
    <Static items={later} style={{ width }}>
      {(item) => <TranscriptItem key={item.id} item={item} />}
    </Static>
  );
});
