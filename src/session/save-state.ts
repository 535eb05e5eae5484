import { SessionError } from './session-error.js';
import type { SessionHandle } from './session.js';

/**
 * Writes a state file for an augment that carries on when it cannot be saved: `notSaved` hears
 * why, at once when the write fails, or later when a write behind it (serve) does.
 */
export function writeStateOrTell(session: SessionHandle, name: string, value: unknown, notSaved: (error: SessionError) => void): void {
  const tell = (error: unknown) => {
    if (!(error instanceof SessionError)) throw error;
    notSaved(error);
  };
  try {
    session.writeState(name, value);
  } catch (error) {
    tell(error);
    return;
  }
  session.stateSaved(name).catch(tell);
}
