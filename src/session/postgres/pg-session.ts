import { isDeepStrictEqual } from 'node:util';
import type { Pool } from 'pg';
import type { SessionEntry, SessionHeader } from '../entries.js';
import { randomHex } from '../ids.js';
import { mergeState } from '../merge-state.js';
import { SessionError, type SessionHandle, type SessionWriterLease } from '../session.js';
import type { WriterLease } from '../store.js';
import { HeldLeases } from '../writer-lock.js';
import { storeError } from './describe-error.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a handle needs from its store. */
export interface PgSessionContext {
  pool: Pool;
  url: string;
  agentKey: string;
  /** This process's lease owner prefix: appends are refused while any other owner holds the session. */
  processOwner: string;
  location(sessionId: string): string;
  acquireWriter(sessionId: string): Promise<WriterLease>;
  /** Called when the handle closes, so the store stops telling it of changes. */
  forget(handle: PgSession): void;
  /** The channel other processes' handles hear state changes on. */
  channel: string;
}

export interface LoadedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  lastEventId: string;
  states: Map<string, unknown>;
}

/** How the caller of a write hears that it was saved, or why not. */
interface Settle {
  resolve(): void;
  reject(error: SessionError): void;
}

type WriteOp =
  /** `asWriter`: made while this handle held the session's lease, so a refusal means the lease was lost. */
  (
    | { kind: 'append'; entry: SessionEntry; asWriter: boolean }
    | { kind: 'state'; name: string; base: unknown; value: unknown }
    | { kind: 'remove'; name: string }
    | { kind: 'rename'; from: string; to: string }
  ) & { settle: Settle };

const ignore = () => undefined;
/** A rename's caller (setAsideState) is told where the file went at once; its save is reported like any write's, to later writes. */
const unheard: Settle = { resolve: ignore, reject: ignore };

const APPEND = `
  WITH added AS (
    INSERT INTO auggy_events (agent_key, session_id, kind, entry)
    SELECT $1, $2, batch.kind, batch.entry FROM unnest($3::json[], $5::text[]) WITH ORDINALITY AS batch(entry, kind, n)
    WHERE NOT EXISTS (
      SELECT 1 FROM auggy_leases
      WHERE agent_key = $1 AND session_id = $2 AND expires_at > now() AND split_part(owner, '#', 1) <> $4
    )
    ORDER BY batch.n
    RETURNING id
  )
  UPDATE auggy_sessions SET updated_at = now()
  WHERE agent_key = $1 AND id = $2 AND EXISTS (SELECT 1 FROM added)
  RETURNING (SELECT count(*) FROM added)::int AS count, (SELECT max(id) FROM added)::text AS last`;

/** Reads a session whole: its header, every entry in order, and its state files. */
export async function loadSession(pool: Pool, agentKey: string, sessionId: string): Promise<LoadedSession | undefined> {
  const head = await pool.query<{ header: SessionHeader }>('SELECT header FROM auggy_sessions WHERE agent_key = $1 AND id = $2', [agentKey, sessionId]);
  const header = head.rows[0]?.header;
  if (!header) return undefined;
  const events = await pool.query<{ id: string; entry: SessionEntry }>(
    'SELECT e.id::text AS id, e.entry FROM auggy_events e WHERE e.agent_key = $1 AND e.session_id = $2 ORDER BY e.id',
    [agentKey, sessionId],
  );
  return {
    header,
    entries: [header, ...events.rows.map((row) => row.entry)],
    lastEventId: events.rows[events.rows.length - 1]?.id ?? '0',
    states: await loadStates(pool, agentKey, sessionId),
  };
}

/** A session's state files (ask, board, workflow), by name. */
async function loadStates(pool: Pool, agentKey: string, sessionId: string): Promise<Map<string, unknown>> {
  const { rows } = await pool.query<{ name: string; value: unknown }>('SELECT name, value FROM auggy_state WHERE agent_key = $1 AND session_id = $2', [
    agentKey,
    sessionId,
  ]);
  return new Map(rows.map((row) => [row.name, row.value]));
}

/**
 * A session in PostgreSQL, as the kernel and augments see every session: synchronous reads from
 * what was loaded, and writes that are kept here at once and saved in order, one queue per handle
 * (entries in batches, each state file in its own transaction); each write's promise settles when
 * it is saved. A state write merges: a part another writer changed meanwhile, and this one did
 * not, is kept. A failed save refuses every later write with the same SessionError until the
 * handle next becomes the writer, which reads the session again.
 */
export class PgSession implements SessionHandle {
  readonly location: string;
  /** No folder: a session here is rows in the database. */
  readonly dir = undefined;
  /** Tells this handle's own notifications apart from other writers'. */
  readonly token = randomHex(6);
  private entryCache: SessionEntry[];
  private states: Map<string, unknown>;
  private lastEventId: string;
  private readonly ops: WriteOp[] = [];
  private draining: Promise<void> | undefined;
  private failure: SessionError | undefined;
  private readonly watchers = new Set<(name: string) => void>();
  private readonly recheck = new Set<string>();
  /** This handle's leases held now: appends made outside one are not a run's. */
  private readonly leases = new HeldLeases();
  /** Entries were left out of the store (see saveEntries): the cache holds some the log does not. */
  private cacheAhead = false;
  /** How many writes of this handle each state file has had, so a read racing one is not taken. */
  private readonly stateWrites = new Map<string, number>();

  constructor(
    private readonly context: PgSessionContext,
    readonly id: string,
    readonly resumed: boolean,
    loaded: LoadedSession,
  ) {
    this.location = context.location(id);
    this.entryCache = loaded.entries;
    this.states = loaded.states;
    this.lastEventId = loaded.lastEventId;
  }

  append(entry: SessionEntry): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.entryCache.push(entry);
    return this.enqueue({ kind: 'append', entry, asWriter: this.leases.any });
  }

  entries(): { entries: SessionEntry[]; warnings: string[] } {
    return { entries: [...this.entryCache], warnings: [] };
  }

  readState(name: string): ReturnType<SessionHandle['readState']> {
    if (!this.states.has(name)) return { status: 'missing' };
    // A copy: a caller changing what it read must not change what is saved.
    return { status: 'ok', value: structuredClone(this.states.get(name)) };
  }

  writeState(name: string, value: unknown): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const base = this.states.get(name);
    const copy = structuredClone(value);
    this.states.set(name, copy);
    this.wrote(name);
    return this.enqueue({ kind: 'state', name, base, value: copy });
  }

  removeState(name: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.states.delete(name);
    this.wrote(name);
    return this.enqueue({ kind: 'remove', name });
  }

  setAsideState(name: string, reason: string): string {
    if (this.failure) throw this.failure;
    const to = `${name}.${reason}-${Date.now()}`;
    const value = this.states.get(name);
    this.states.delete(name);
    if (value !== undefined) this.states.set(to, value);
    this.wrote(name);
    this.enqueue({ kind: 'rename', from: name, to }, unheard).catch(ignore);
    return `${this.location}, state ${to}`;
  }

  watchState(listener: (name: string) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** The lease, then what other replicas wrote since this handle read the session; a save refused before is forgotten, and what it kept here read again. */
  async acquireWriter(): Promise<SessionWriterLease> {
    const lease = await this.context.acquireWriter(this.id);
    await this.flush();
    if (this.failure) {
      this.failure = undefined;
      this.cacheAhead = true;
    }
    const counted = this.leases.hold(lease);
    // The next writer, here or on another replica, finds every write this one asked for.
    const release = async () => {
      await this.flush();
      await counted();
    };
    try {
      return { ...lease, notices: lease.notices, release, changedElsewhere: await this.refresh() };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * Reads again what other replicas wrote: the state files always (a board write changes no
   * entry, and a change notice may have been missed), the entries when there are new ones.
   * Watchers hear of each state file that changed, so augments drop what they keep of it.
   * Resolves to whether the entries changed.
   */
  async refresh(): Promise<boolean> {
    await this.flush();
    const { pool, agentKey } = this.context;
    const latest = await pool.query<{ last: string | null }>('SELECT max(id)::text AS last FROM auggy_events WHERE agent_key = $1 AND session_id = $2', [
      agentKey,
      this.id,
    ]);
    const entriesChanged = this.cacheAhead || (latest.rows[0]?.last ?? '0') !== this.lastEventId;
    const loaded = entriesChanged ? await loadSession(pool, agentKey, this.id) : { states: await loadStates(pool, agentKey, this.id) };
    if (!loaded) return false;
    const changed = [...new Set([...this.states.keys(), ...loaded.states.keys()])].filter(
      (name) => !isDeepStrictEqual(this.states.get(name), loaded.states.get(name)),
    );
    this.states = loaded.states;
    if ('entries' in loaded) {
      this.entryCache = loaded.entries;
      this.lastEventId = loaded.lastEventId;
      this.cacheAhead = false;
    }
    changed.forEach((name) => this.tell(name));
    return entriesChanged;
  }

  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    await this.flush();
    this.context.forget(this);
  }

  /** Another process changed a state file of this session: read it again and say so. */
  async stateChangedElsewhere(name: string): Promise<void> {
    // A write of ours to the same file is on its way: read again once it is saved, since its
    // merge may or may not have seen this change.
    if (this.ops.some((op) => 'name' in op && op.name === name)) {
      this.recheck.add(name);
      return;
    }
    const writesBefore = this.stateWrites.get(name) ?? 0;
    const { rows } = await this.context.pool.query<{ value: unknown }>('SELECT value FROM auggy_state WHERE agent_key = $1 AND session_id = $2 AND name = $3', [
      this.context.agentKey,
      this.id,
      name,
    ]);
    // A write of ours began while this read was on its way: ours is newer (or rechecks after saving).
    if ((this.stateWrites.get(name) ?? 0) !== writesBefore) return;
    const value = rows[0]?.value;
    if (isDeepStrictEqual(value, this.states.get(name))) return;
    if (value === undefined) this.states.delete(name);
    else this.states.set(name, value);
    this.tell(name);
  }

  private wrote(name: string): void {
    this.stateWrites.set(name, (this.stateWrites.get(name) ?? 0) + 1);
  }

  private tell(name: string): void {
    for (const watcher of this.watchers) watcher(name);
  }

  private enqueue(op: DistributiveOmit<WriteOp, 'settle'>, heard?: Settle): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ops.push({ ...op, settle: heard ?? { resolve, reject } } as WriteOp);
      this.draining ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Let the writes of this tick gather, so a burst of events is one statement.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.ops.length > 0) {
      const op = this.ops[0];
      const taken: WriteOp[] = [];
      try {
        if (this.failure) throw this.failure;
        if (op.kind === 'append') {
          while (this.ops[0]?.kind === 'append' && this.ops[0].asWriter === op.asWriter) taken.push(this.ops.shift() as WriteOp);
          await this.saveEntries(
            taken.map((next) => (next as Extract<WriteOp, { kind: 'append' }>).entry),
            op.asWriter,
          );
        } else {
          await this.saveState(op);
          taken.push(this.ops.shift() as WriteOp);
          const name = op.kind === 'rename' ? op.from : op.name;
          if (this.recheck.delete(name)) await this.stateChangedElsewhere(name);
        }
        for (const done of taken) done.settle.resolve();
      } catch (error) {
        this.failure ??= storeError(error, this.context.url);
        // This write and every one queued after it: the session keeps no write that skipped one before it.
        for (const refused of [...taken, ...this.ops.splice(0)]) refused.settle.reject(this.failure);
      }
    }
    // In the same step as the check above: a write asked for after it starts a drain of its own.
    this.draining = undefined;
  }

  private async saveEntries(batch: SessionEntry[], asWriter: boolean): Promise<void> {
    const { pool, agentKey, processOwner } = this.context;
    const result = await pool.query<{ count: number; last: string }>(APPEND, [
      agentKey,
      this.id,
      batch.map((entry) => JSON.stringify(entry)),
      processOwner,
      batch.map((entry) => entry.kind),
    ]);
    const row = result.rows[0];
    // Written between runs while another process's run holds the session: these are this
    // handle's echoes of that run's state changes (the board heard from elsewhere), which that
    // run logs itself. They are left out, and this handle stays usable: its next run takes the
    // lease and reads the log again, as the folder store's chat does.
    if (!row && !asWriter) {
      this.cacheAhead = true;
      return;
    }
    if (!row || row.count !== batch.length) {
      throw new SessionError(`another auggy holds session ${this.id} now, so what this one wrote after that was not saved`);
    }
    // Between runs another process may have written before these: the next lease reads the log
    // again rather than take these ids as where this handle has read up to.
    if (!asWriter) this.cacheAhead = true;
    else this.lastEventId = row.last;
  }

  private notifyArgs(name: string): [string, string] {
    return [this.context.channel, JSON.stringify({ a: this.context.agentKey, s: this.id, n: name, h: this.token })];
  }

  /**
   * One statement in the usual case: the file is still what this handle last read, so it is
   * replaced (compare-and-set) and the other replicas told, on commit. Otherwise the slow path
   * merges under the row's lock.
   */
  private async saveState(op: Exclude<WriteOp, { kind: 'append' }>): Promise<void> {
    const { pool, agentKey } = this.context;
    const key = [agentKey, this.id];
    if (op.kind === 'remove' || op.kind === 'rename') {
      const sql =
        op.kind === 'remove'
          ? 'WITH changed AS (DELETE FROM auggy_state WHERE agent_key = $1 AND session_id = $2 AND name = $3 RETURNING 1) SELECT pg_notify($4, $5)'
          : 'WITH changed AS (UPDATE auggy_state SET name = $6, updated_at = now() WHERE agent_key = $1 AND session_id = $2 AND name = $3 RETURNING 1) SELECT pg_notify($4, $5)';
      const name = op.kind === 'remove' ? op.name : op.from;
      await pool.query(sql, [...key, name, ...this.notifyArgs(name), ...(op.kind === 'rename' ? [op.to] : [])]);
      return;
    }
    const value = JSON.stringify(op.value);
    const fast =
      op.base === undefined
        ? await pool.query(
            `WITH changed AS (INSERT INTO auggy_state (agent_key, session_id, name, value) VALUES ($1, $2, $3, $4::json) ON CONFLICT DO NOTHING RETURNING 1)
             SELECT pg_notify($5, $6) FROM changed`,
            [...key, op.name, value, ...this.notifyArgs(op.name)],
          )
        : await pool.query(
            `WITH changed AS (
               UPDATE auggy_state SET value = $4::json, updated_at = now()
               WHERE agent_key = $1 AND session_id = $2 AND name = $3 AND value::text = $7 RETURNING 1)
             SELECT pg_notify($5, $6) FROM changed`,
            [...key, op.name, value, ...this.notifyArgs(op.name), JSON.stringify(op.base)],
          );
    if (fast.rowCount === 1) return;
    const merged = await this.mergeUnderLock(op);
    // Another writer's part came in with the merge: take it, unless a newer write of ours follows.
    if (!isDeepStrictEqual(merged, op.value) && !this.ops.slice(1).some((next) => 'name' in next && next.name === op.name)) {
      this.states.set(op.name, merged);
      this.tell(op.name);
    }
  }

  /** The file changed since this handle read it: lock its row, merge, write, tell, in one transaction. */
  private async mergeUnderLock(op: Extract<WriteOp, { kind: 'state' }>): Promise<unknown> {
    const { pool, agentKey } = this.context;
    const key = [agentKey, this.id, op.name];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // A row that is not there yet is created inside the transaction, so it is locked all the same.
      const inserted = await client.query(
        "INSERT INTO auggy_state (agent_key, session_id, name, value) VALUES ($1, $2, $3, 'null'::json) ON CONFLICT DO NOTHING RETURNING 1",
        key,
      );
      const current =
        inserted.rowCount === 1
          ? undefined
          : (await client.query<{ value: unknown }>('SELECT value FROM auggy_state WHERE agent_key = $1 AND session_id = $2 AND name = $3 FOR UPDATE', key))
              .rows[0]?.value;
      const merged = mergeState(op.base, op.value, current);
      await client.query('UPDATE auggy_state SET value = $4::json, updated_at = now() WHERE agent_key = $1 AND session_id = $2 AND name = $3', [
        ...key,
        JSON.stringify(merged),
      ]);
      await client.query('SELECT pg_notify($1, $2)', this.notifyArgs(op.name));
      await client.query('COMMIT');
      return merged;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
