import type { Pool } from 'pg';

/**
 * auggy's tables, one migration per schema version. A migration is never edited once released:
 * a change is a new entry, so every database moves forward by the same steps.
 */
const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE auggy_sessions (
        agent_key  text NOT NULL,
        id         text NOT NULL,
        agent_name text NOT NULL,
        header     json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_key, id)
      );
      CREATE INDEX auggy_sessions_recent ON auggy_sessions (agent_key, updated_at DESC);
      CREATE TABLE auggy_events (
        id         bigserial PRIMARY KEY,
        agent_key  text NOT NULL,
        session_id text NOT NULL,
        kind       text NOT NULL,
        entry      json NOT NULL,
        FOREIGN KEY (agent_key, session_id) REFERENCES auggy_sessions (agent_key, id) ON DELETE CASCADE
      );
      CREATE INDEX auggy_events_by_session ON auggy_events (agent_key, session_id, id);
      CREATE TABLE auggy_state (
        agent_key  text NOT NULL,
        session_id text NOT NULL,
        name       text NOT NULL,
        value      json NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_key, session_id, name),
        FOREIGN KEY (agent_key, session_id) REFERENCES auggy_sessions (agent_key, id) ON DELETE CASCADE
      );
      CREATE TABLE auggy_leases (
        agent_key   text NOT NULL,
        session_id  text NOT NULL,
        owner       text NOT NULL,
        pid         integer NOT NULL,
        host        text NOT NULL,
        acquired_at timestamptz NOT NULL,
        expires_at  timestamptz NOT NULL,
        PRIMARY KEY (agent_key, session_id)
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Any fixed number: every auggy takes the same advisory lock, so one migrates and the rest wait. */
const MIGRATION_LOCK = 7_318_265_001;

export class SchemaTooNewError extends Error {}

/**
 * Brings the database to this auggy's schema. Replicas starting together queue on an advisory
 * lock; the first applies what is missing, the others find it done. Resolves to the versions this
 * call applied (empty when the schema was already current).
 */
export async function migrate(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS auggy_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM auggy_schema_migrations');
      const current = rows[0]?.version ?? 0;
      if (current > SCHEMA_VERSION) {
        throw new SchemaTooNewError(
          `the session store is at schema version ${current}, newer than this auggy knows (${SCHEMA_VERSION}); upgrade auggy on this machine`,
        );
      }
      for (const migration of MIGRATIONS.filter((m) => m.version > current)) {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO auggy_schema_migrations (version) VALUES ($1)', [migration.version]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}
