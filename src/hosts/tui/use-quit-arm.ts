import { useCallback, useEffect, useMemo, useRef } from 'react';

/** How long the first Ctrl+C waits for the second. */
export const QUIT_ARM_MS = 3000;

export interface QuitArm {
  armed(): boolean;
  arm(): void;
  disarm(): void;
}

/**
 * The first Ctrl+C on an idle prompt arms quitting for a few seconds; `onChange` shows or hides
 * the hint. Kept in a ref: two presses in one chunk of input must still quit.
 */
export function useQuitArm(onChange: (armed: boolean) => void): QuitArm {
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  const disarm = useCallback(() => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    latestOnChange.current(false);
  }, []);
  const arm = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(disarm, QUIT_ARM_MS);
    latestOnChange.current(true);
  }, [disarm]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useMemo(() => ({ armed: () => timer.current !== undefined, arm, disarm }), [arm, disarm]);
}
