import { createContext, useContext, type ReactNode } from 'react';

/**
 * Text printed above Ink's frame in step with the frame that stops drawing it live.
 *
 * A streamed reply's finished blocks leave the live frame and are printed above it once, as text
 * (Ink's `write`). Printed from an effect, they would meet the frame at the wrong time: Ink draws
 * a commit at once, or, within its frame-rate limit, a little later; printed before that later
 * frame, they showed twice (printed, and still in the old frame) until it came. So the print
 * waits for Ink's next render of the tree and goes out right after Ink has written the frame
 * that no longer shows it live: Ink's `write` erases that frame, prints, and puts it back under
 * the print. Printed before that frame instead, the old frame was put back, and a taller old
 * frame scrolled the screen further than the new one needed (blank rows under the input). The
 * terminal's writes are held meanwhile (`cork`), so the frame and the print reach it as one write,
 * never a screen with the block twice or not at all.
 *
 * Ink's <Static> does the same by itself, but lays its items out through the whole frame's
 * pipeline and then draws the frame a second time once it has emptied itself: printing each
 * block as it finished cost a stream more than the rest of its frames (docs/performance.md).
 */
export interface AboveFrame {
  /** Runs `print` (a write above the frame) as Ink draws its next frame. */
  later(print: () => void): void;
  /** Ink's `onRender` option: called on every render, just before Ink writes the frame. */
  onRender(): void;
  /**
   * Prints what waits for a frame now, before the chat tells Ink to exit: Ink's last render, on
   * exit, comes after which its `write` prints nothing, so a turn's last blocks waiting for that
   * render would never be printed.
   */
  flush(): void;
}

/** `terminal`: the stream Ink writes the frame to. */
export function createAboveFrame(terminal?: Pick<NodeJS.WriteStream, 'cork' | 'uncork'>): AboveFrame {
  let due: (() => void)[] = [];
  const takeDue = () => {
    const now = due;
    due = [];
    return now;
  };
  return {
    later(print) {
      due.push(print);
    },
    flush() {
      for (const print of takeDue()) print();
    },
    onRender() {
      if (due.length === 0) return;
      // Ink writes the frame right after this returns; the prints follow it, before anything
      // else can run, so Ink's write puts back the frame just drawn, under them. Taken now, so a
      // print scheduled by a later commit waits for that commit's frame.
      const now = takeDue();
      terminal?.cork();
      queueMicrotask(() => {
        try {
          for (const print of now) print();
        } finally {
          terminal?.uncork();
        }
      });
    },
  };
}

const AboveFrameContext = createContext<AboveFrame | undefined>(undefined);

export function AboveFrameProvider({ value, children }: { value: AboveFrame; children: ReactNode }) {
  return <AboveFrameContext.Provider value={value}>{children}</AboveFrameContext.Provider>;
}

/** The chat's printer in step with Ink's frames; undefined where nothing set one up (a test's render). */
export function useAboveFrame(): AboveFrame | undefined {
  return useContext(AboveFrameContext);
}
