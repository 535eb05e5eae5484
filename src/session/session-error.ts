/** A session that cannot be opened, read or written, said as one sentence for the person. */
export class SessionError extends Error {}

/**
 * The session named is not in the store, and was not to be made. The message is the CLI's
 * sentence; a server that names sessions otherwise (serve's threads) says its own from `sessionId`.
 */
export class SessionNotFoundError extends SessionError {
  constructor(
    readonly sessionId: string,
    /** Where the store looked: the sessions folder, or the database. */
    where: string,
  ) {
    super(`no session "${sessionId}" in ${where}; run without --session to start one`);
  }
}

/**
 * The store itself cannot be reached just now (the database is down or the network between):
 * nothing about the session is wrong, so trying again later may work. The message names where
 * the store is, for a person at the terminal or an operator's log; a server tells its clients
 * less, since the address and user are its own business.
 */
export class StoreUnreachableError extends SessionError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    // A condition of the machine, not a fault in auggy: where it was thrown says nothing an
    // operator can act on, and libraries that log what they catch (the A2A SDK does, with
    // console.error) would print it as a stack trace beside the one sentence.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * Why a write under the session folder failed, in words that say what to do. `then` is what to
 * do once the disk has room: resume the session, or, for one that could not be made, try again.
 */
export function describeWriteError(error: unknown, path: string, then = 'resume with --session'): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk is full, so ${path} could not be written; free some space and ${then}`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} is not writable; check the folder's permissions`;
  if (code === 'EROFS') return `${path} is on a read-only file system`;
  if (code === 'ELOOP') return `${path} is a symbolic link; auggy writes nothing under .auggy through a link, so replace it with a real file`;
  return `${path} could not be written (${error instanceof Error ? error.message : String(error)})`;
}
