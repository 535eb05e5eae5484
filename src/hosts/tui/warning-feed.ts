/**
 * Warnings from the kernel and augments (a corrupt state file set aside, a session that could not
 * be saved). They can arrive before the TUI is drawn, so they wait until a listener attaches.
 */
export interface WarningFeed {
  warn(message: string): void;
  attach(listener: (message: string) => void): () => void;
}

export function createWarningFeed(): WarningFeed {
  const waiting: string[] = [];
  let listener: ((message: string) => void) | undefined;
  return {
    warn(message) {
      if (listener) listener(message);
      else waiting.push(message);
    },
    attach(next) {
      listener = next;
      waiting.splice(0).forEach((message) => next(message));
      return () => {
        if (listener === next) listener = undefined;
      };
    },
  };
}
