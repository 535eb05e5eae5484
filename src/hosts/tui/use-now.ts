import { useLayoutEffect, useState } from 'react';

/**
 * The current time as of this draw; the caller draws again `intervalMs` after its last draw while
 * `active`. Counted from the last draw, not on a clock of its own: while a reply streams the
 * screen is drawn anyway, and a spinner that also ticked on its own timer doubled the frames
 * (each one laid out and written whole by Ink) for nothing the eye could tell.
 */
export function useNow(intervalMs: number, active = true): number {
  const [, redraw] = useState(0);
  // No dependency list: it runs after every draw, so the next tick counts from it. A layout effect,
  // so the last draw's timer is cleared in the same commit: a passive effect's cleanup runs later,
  // and a timer that fired in between drew a frame the same as the one just drawn.
  useLayoutEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => redraw((count) => count + 1), intervalMs);
    return () => clearTimeout(timer);
  });
  return Date.now();
}
