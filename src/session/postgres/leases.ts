import type { Pool } from 'pg';
import { SessionBusyError, type WriterLease } from '../store.js';

/** How long a lease outlives its last renewal: a killed replica's threads are free after this. */
export const DEFAULT_LEASE_MS = 30_000;

export interface LeaseSettings {
  pool: Pool;
  agentKey: string;
  /** This process, unique among replicas: `host:pid:random`. Never contains '#'. */
  processOwner: string;
  leaseMs: number;
  log(message: string): void;
}

const ACQUIRE = `
  INSERT INTO auggy_leases AS l (agent_key, session_id, owner, pid, host, acquired_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, now(), now() + make_interval(secs => $6::double precision / 1000))
  ON CONFLICT (agent_key, session_id) DO UPDATE
    SET owner = EXCLUDED.owner, pid = EXCLUDED.pid, host = EXCLUDED.host,
        acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
    WHERE l.expires_at <= now()
  RETURNING owner`;

const RENEW = `
  UPDATE auggy_leases SET expires_at = now() + make_interval(secs => $4::double precision / 1000)
  WHERE agent_key = $1 AND session_id = $2 AND owner = $3`;

/**
 * Writer leases: one row per session being written, with its owner and an expiry the owner
 * renews (every third of the lease) while its run lives. Expiry is the database's clock, so
 * replicas' clocks never have to agree. A replica that dies stops renewing, and its threads are
 * free once the lease runs out.
 */
export class Leases {
  private count = 0;

  constructor(private readonly settings: LeaseSettings) {}

  async acquire(sessionId: string): Promise<WriterLease> {
    const { pool, agentKey, processOwner, leaseMs } = this.settings;
    const owner = `${processOwner}#${++this.count}`;
    const [host, pid] = processOwner.split(':');
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await pool.query(ACQUIRE, [agentKey, sessionId, owner, Number(pid), host, leaseMs]);
      if (taken.rowCount === 1) return this.held(sessionId, owner);
      const holder = await pool.query<{ pid: number; host: string }>('SELECT pid, host FROM auggy_leases WHERE agent_key = $1 AND session_id = $2', [
        agentKey,
        sessionId,
      ]);
      const row = holder.rows[0];
      // Released between the two statements: try once more.
      if (row) throw new SessionBusyError(sessionId, `pid ${row.pid} on ${row.host}`);
    }
    throw new SessionBusyError(sessionId, 'another run that keeps taking it');
  }

  private held(sessionId: string, owner: string): WriterLease {
    const { pool, agentKey, leaseMs, log } = this.settings;
    const lost = new AbortController();
    let confirmedAt = Date.now();
    let released: Promise<void> | undefined;
    const renew = async () => {
      try {
        const result = await pool.query(RENEW, [agentKey, sessionId, owner, leaseMs]);
        if (result.rowCount === 1) {
          confirmedAt = Date.now();
          return;
        }
        lost.abort(new Error(`the lease on session ${sessionId} was taken over after it expired; this run stops`));
      } catch (error) {
        // The database is away for a moment; the lease still holds until its expiry.
        if (Date.now() - confirmedAt < leaseMs) return;
        lost.abort(
          new Error(`the lease on session ${sessionId} could not be renewed (${error instanceof Error ? error.message : String(error)}); this run stops`),
        );
      }
      if (lost.signal.aborted) clearInterval(timer);
    };
    const timer = setInterval(() => void renew(), Math.max(100, Math.floor(leaseMs / 3)));
    timer.unref();
    return {
      notices: [],
      lost: lost.signal,
      release: () =>
        (released ??= (async () => {
          clearInterval(timer);
          try {
            await pool.query('DELETE FROM auggy_leases WHERE agent_key = $1 AND session_id = $2 AND owner = $3', [agentKey, sessionId, owner]);
          } catch (error) {
            // It expires by itself; the thread is only busy a little longer.
            log(
              `the lease on session ${sessionId} could not be released (${error instanceof Error ? error.message : String(error)}); it expires within ${Math.ceil(leaseMs / 1000)} s`,
            );
          }
        })()),
    };
  }
}
