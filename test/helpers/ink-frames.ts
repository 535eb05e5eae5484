import { vi } from 'vitest';

/** Waits for a frame that satisfies `check` (Ink renders asynchronously), never a fixed sleep. */
export async function frameWith(lastFrame: () => string | undefined, check: (frame: string) => boolean): Promise<string> {
  let frame = '';
  await vi.waitFor(
    () => {
      frame = lastFrame() ?? '';
      if (!check(frame)) throw new Error(`frame not there yet:\n${frame}`);
    },
    { timeout: 5000, interval: 20 },
  );
  return frame;
}
