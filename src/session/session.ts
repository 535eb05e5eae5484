import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import type { SessionEntry, SessionHeader } from './entries.js';
import { isValidSessionId, newSessionId } from './ids.js';
import { sessionHasMessage } from './session-summary.js';

export class SessionError extends Error {}

/** An open session folder: the append-only event log plus small state files. */
export interface SessionHandle {
  readonly id: string;
  readonly dir: string;
  readonly resumed: boolean;
  /** Appends one line; throws SessionError with a readable reason (disk full, ...) on failure. */
  append(entry: SessionEntry): void;
  /** Every readable entry; a torn last line (crash mid-write) is skipped and reported. */
  entries(): { entries: SessionEntry[]; warnings: string[] };
  readState(name: string): { status: 'missing' } | { status: 'ok'; value: unknown } | { status: 'corrupt'; setAsideTo: string };
  writeState(name: string, value: unknown): void;
  removeState(name: string): void;
}

export function sessionsRoot(agentDir: string): string {
  return join(agentDir, '.auggy', 'sessions');
}

function describeWriteError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return `the disk is full, so ${path} could not be written; free some space and resume with --session`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} is not writable; check the folder's permissions`;
  if (code === 'EROFS') return `${path} is on a read-only file system`;
  return `${path} could not be written (${error instanceof Error ? error.message : String(error)})`;
}

class FolderSession implements SessionHandle {
  constructor(
    readonly id: string,
    readonly dir: string,
    readonly resumed: boolean,
  ) {}

  private get eventsFile(): string {
    return join(this.dir, 'events.jsonl');
  }

  append(entry: SessionEntry): void {
    try {
      appendFileSync(this.eventsFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch (error) {
      throw new SessionError(describeWriteError(error, this.eventsFile));
    }
  }

  entries(): { entries: SessionEntry[]; warnings: string[] } {
    const warnings: string[] = [];
    const entries: SessionEntry[] = [];
    const lines = readFileSync(this.eventsFile, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        entries.push(JSON.parse(line) as SessionEntry);
      } catch {
        warnings.push(`events.jsonl line ${index + 1} is incomplete (probably cut off by a crash) and was skipped`);
      }
    });
    return { entries, warnings };
  }

  readState(name: string): ReturnType<SessionHandle['readState']> {
    const path = join(this.dir, name);
    if (!existsSync(path)) return { status: 'missing' };
    try {
      return { status: 'ok', value: JSON.parse(readFileSync(path, 'utf8')) as unknown };
    } catch {
      // Keep the bad file for inspection; the session carries on without it.
      const setAsideTo = `${path}.corrupt-${Date.now()}`;
      renameSync(path, setAsideTo);
      return { status: 'corrupt', setAsideTo };
    }
  }

  writeState(name: string, value: unknown): void {
    const path = join(this.dir, name);
    try {
      writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
    } catch (error) {
      throw new SessionError(describeWriteError(error, path));
    }
  }

  removeState(name: string): void {
    rmSync(join(this.dir, name), { force: true });
  }
}

/** Session ids of an agent folder, newest first. */
export function listSessions(agentDir: string): string[] {
  const root = sessionsRoot(agentDir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => isValidSessionId(name) && existsSync(join(root, name, 'events.jsonl')))
    .map((name) => ({ name, mtime: statSync(join(root, name, 'events.jsonl')).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))
    .map((s) => s.name);
}

export interface OpenSessionOptions {
  agentDir: string;
  agentName: string;
  agentId?: string;
  /** Resume this session (must exist unless createIfMissing). */
  sessionId?: string;
  /** Resume the newest session anything was said in; starts a new one when there is none. */
  continueLatest?: boolean;
  /** serve: a client's thread id names a session that may not exist yet. */
  createIfMissing?: boolean;
}

export function openSession(options: OpenSessionOptions): SessionHandle {
  const root = sessionsRoot(options.agentDir);
  let id = options.sessionId;
  if (id !== undefined && !isValidSessionId(id)) {
    throw new SessionError(`"${id}" is not a session id (letters, digits, - and _ only, at most 128 characters)`);
  }
  // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
  if (id === undefined && options.continueLatest) id = listSessions(options.agentDir).find((candidate) => sessionHasMessage(join(root, candidate, 'events.jsonl')));
  if (id !== undefined) {
    const dir = join(root, id);
    if (existsSync(join(dir, 'events.jsonl'))) return new FolderSession(id, dir, true);
    if (!options.createIfMissing) {
      throw new SessionError(`no session "${id}" in ${root}; run without --session to start one`);
    }
  }
  return createSession(options, id ?? newSessionId());
}

function createSession(options: OpenSessionOptions, id: string): SessionHandle {
  const dir = join(sessionsRoot(options.agentDir), id);
  const header: SessionHeader = {
    kind: 'header',
    version: 1,
    sessionId: id,
    agentId: options.agentId,
    agentName: options.agentName,
    createdAt: new Date().toISOString(),
  };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify(header)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new SessionError(describeWriteError(error, join(dir, 'events.jsonl')));
  }
  return new FolderSession(id, dir, false);
}
