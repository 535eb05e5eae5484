import { useEffect } from 'react';

/** How long the width must hold still before the transcript is printed again. */
const SETTLE_MS = 150;

/**
 * Text already printed was wrapped at the old width; when the width changes, the transcript is
 * printed again so it wraps at the new one. Waits for the drag to settle first.
 */
export function useReprintOnResize(stdout: NodeJS.WriteStream, reprint: () => void): void {
  useEffect(() => {
    let width = stdout.columns;
    let timer: NodeJS.Timeout | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (stdout.columns === width) return;
        width = stdout.columns;
        reprint();
      }, SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout, reprint]);
}
