import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionHeader } from './entries.js';
import { FolderSession } from './folder-session.js';
import { isValidSessionId, newSessionId } from './ids.js';
import { FileWriterLock } from './lock-file.js';
import { ensureRealFolders, refuseLinksIn } from './real-paths.js';
import { SessionError, SessionNotFoundError, describeWriteError } from './session-error.js';
import { EVENTS_FILE, sessionsRoot } from './session-paths.js';
import { sessionHasMessage } from './session-summary.js';
import { StateWatchers } from './state-watchers.js';
import { createWholeFile } from './whole-file.js';

export interface OpenSessionOptions {
  agentDir: string;
  /** Handles opened with the same watchers hear of each other's state writes. */
  watchers?: StateWatchers;
  agentName: string;
  agentId?: string;
  /** Resume this session (must exist unless createIfMissing). */
  sessionId?: string;
  /** Resume the newest session anything was said in; starts a new one when there is none. */
  continueLatest?: boolean;
  /** serve: a client's thread id names a session that may not exist yet. */
  createIfMissing?: boolean;
  /** The writer lock, shared by every session a process opens (serve); one of its own otherwise. */
  locks?: FileWriterLock;
}

/** Session ids of an agent folder, newest first. */
export function listSessions(agentDir: string): string[] {
  const root = sessionsRoot(agentDir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => isValidSessionId(name) && existsSync(join(root, name, EVENTS_FILE)))
    .map((name) => ({ name, mtime: statSync(join(root, name, EVENTS_FILE)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))
    .map((s) => s.name);
}

function hasEventLog(dir: string): boolean {
  try {
    // A new thread's session has none: no exception (and its stack) for that.
    return lstatSync(join(dir, EVENTS_FILE), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The folder of an existing session to resume, or the id a new one is to get. */
function locateSession(options: OpenSessionOptions): { found: string; id: string } | { create: string } {
  const root = sessionsRoot(options.agentDir);
  let id = options.sessionId;
  if (id !== undefined && !isValidSessionId(id)) {
    throw new SessionError(`"${id}" is not a session id (letters, digits, - and _ only, at most 128 characters)`);
  }
  // Checked before anything is listed or created: a linked .auggy/sessions is refused outright.
  ensureRealFolders(options.agentDir, ['.auggy', 'sessions'], { create: false });
  // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
  if (id === undefined && options.continueLatest)
    id = listSessions(options.agentDir).find((candidate) => sessionHasMessage(join(root, candidate, EVENTS_FILE)));
  if (id !== undefined) {
    const dir = ensureRealFolders(options.agentDir, ['.auggy', 'sessions', id], { create: false });
    if (existsSync(dir)) refuseLinksIn(dir, `.auggy/sessions/${id}`);
    if (hasEventLog(dir)) return { found: dir, id };
    if (!options.createIfMissing) {
      throw new SessionNotFoundError(id, root);
    }
  }
  return { create: id ?? newSessionId() };
}

/**
 * Opens a session of an agent folder: the one named, the newest, or a new one. A session being
 * resumed is repaired only of what needs no writer (a crash's temp files); a cut last line waits
 * for the lease (acquireWriter), so opening never takes the lock and never says it took it over.
 */
export async function openSession(options: OpenSessionOptions): Promise<FolderSession> {
  const locks = options.locks ?? new FileWriterLock(sessionsRoot(options.agentDir));
  const watchers = options.watchers ?? new StateWatchers();
  const located = locateSession(options);
  if ('found' in located) return resumed(located.id, located.found, locks, watchers);
  return createSession(options, located.create, locks, watchers);
}

async function resumed(id: string, dir: string, locks: FileWriterLock, watchers: StateWatchers): Promise<FolderSession> {
  const session = new FolderSession(id, dir, true, locks, watchers);
  await session.removeCrashLeftovers();
  return session;
}

function sessionHeader(options: OpenSessionOptions, id: string): string {
  const header: SessionHeader = {
    kind: 'header',
    version: 1,
    sessionId: id,
    agentId: options.agentId,
    agentName: options.agentName,
    createdAt: new Date().toISOString(),
  };
  return `${JSON.stringify(header)}\n`;
}

/**
 * Makes a new session's folder and its log with the header, whole (createWholeFile): a header cut
 * short would be a session no one can read. When the log cannot be made, the folder this call
 * made is removed again, so a full disk leaves no empty session behind. Another open making the
 * same session meanwhile (a person's board write beside a thread's first run) wins the log, and
 * this one opens what it made.
 */
async function createSession(options: OpenSessionOptions, id: string, locks: FileWriterLock, watchers: StateWatchers): Promise<FolderSession> {
  const sessionsDir = ensureRealFolders(options.agentDir, ['.auggy', 'sessions'], { create: true });
  const dir = join(sessionsDir, id);
  let madeDir = true;
  try {
    await mkdir(dir, { mode: 0o700 });
    // Private to the user whatever the umask took off.
    await chmod(dir, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new SessionError(describeWriteError(error, dir, 'try again'));
    madeDir = false;
    // Made by someone else meanwhile: it must still be a real folder.
    ensureRealFolders(options.agentDir, ['.auggy', 'sessions', id], { create: false });
  }
  const path = join(dir, EVENTS_FILE);
  const header = sessionHeader(options, id);
  try {
    await createWholeFile(path, header);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resumed(id, dir, locks, watchers);
    // Only an empty folder goes: rmdir refuses one that someone else has put a file in meanwhile.
    if (madeDir) await rmdir(dir).catch(() => undefined);
    throw new SessionError(describeWriteError(error, path, 'try again'));
  }
  return new FolderSession(id, dir, false, locks, watchers, Buffer.byteLength(header));
}
