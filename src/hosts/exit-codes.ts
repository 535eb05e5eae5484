import type { TurnStatus } from '../kernel/events.js';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  inputRequired: 3,
  canceled: 130,
  /** 128 + SIGTERM: how CI stops a job on timeout; the turn is canceled and saved as with Ctrl+C. */
  terminated: 143,
} as const;

/** The exit code that tells a script how the turn ended. */
export function exitCodeForStatus(status: TurnStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.ok;
    case 'input-required':
      return EXIT.inputRequired;
    case 'canceled':
      return EXIT.canceled;
    case 'failed':
    case 'budget-exhausted':
      return EXIT.failed;
  }
}

/** A mistake in how auggy was called or configured: one line on stderr, exit code 2. */
export class UsageError extends Error {
  /** `missing-key`: the provider's key is not set, the one thing an editor can fix by asking for it. */
  constructor(
    message: string,
    readonly reason?: 'missing-key',
  ) {
    super(message);
  }
}
