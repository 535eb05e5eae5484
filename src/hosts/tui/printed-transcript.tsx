import { useStdout } from 'ink';
import { memo, useEffect, useInsertionEffect, useLayoutEffect, useRef, useState } from 'react';
import { useAboveFrame } from './above-frame.js';
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
 * The finished transcript, each item printed once above the live part, as text: the items' rows.
 * What is already finished when printing starts (a resumed session's latest items, everything
 * again after a resize or /clear) is printed at once; laid out through Ink's <Static>, 2,000
 * messages took seconds (docs/performance.md). Items that finish later (a streamed reply's
 * blocks, block by block) are printed with the frame that drops them from the live part
 * (above-frame.tsx says how), or at once where no chat set that up (a test's render).
 *
 * Memoised: it prints only when the finished items grow, never because the chat drew again.
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
  // Until then nothing later is printed, so an item finished meanwhile comes after them.
  const printedLater = useRef(printedAtOnce);
  const aboveFrame = useAboveFrame();
  // A print still waiting for a frame when this unmounts is dropped: the remount (a resize,
  // /clear) prints everything again.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  /** The rows of what finished since the last print, counted as printed; undefined when nothing did. */
  const takeLater = () => {
    if (!opened || items.length <= printedLater.current) return undefined;
    const text = transcriptText(items.slice(printedLater.current), width, palette);
    printedLater.current = items.length;
    return text;
  };
  const out = print ?? write;
  // In the chat, scheduled before the commit reaches Ink (an insertion effect runs first), so the
  // render of this very commit, at once or later, prints them; with no one to schedule, after the commit.
  useInsertionEffect(() => {
    if (!aboveFrame) return;
    const text = takeLater();
    if (text) aboveFrame.later(() => mounted.current && out(text));
  });
  useLayoutEffect(() => {
    if (aboveFrame) return;
    const text = takeLater();
    if (text) out(text);
  });
  return null;
});
