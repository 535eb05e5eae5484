// What the kernel, augments and hosts take from the session layer; each part lives in its own file.
export { SessionError, SessionNotFoundError, StoreUnreachableError } from './session-error.js';
export { SessionBusyError, type WriterLease, type WriterLock } from './writer-lock.js';
export { FileWriterLock } from './lock-file.js';
export { EVENTS_FILE, sessionsRoot } from './session-paths.js';
export { StateWatchers } from './state-watchers.js';
export { listSessions, openSession, type OpenSessionOptions } from './open-session.js';
export type { SessionHandle, SessionWriterLease } from './session-handle.js';
