import { hostname } from 'node:os';
import type { Pool } from 'pg';
import type { SessionHeader } from '../entries.js';
import { isValidSessionId, newSessionId, randomHex } from '../ids.js';
import { SessionError, SessionNotFoundError } from '../session.js';
import { SessionBusyError, observerView, type SessionStore, type StoreAgent, type StoreOpenOptions } from '../store.js';
import { describeStoreError, storeError } from './describe-error.js';
import { DEFAULT_LEASE_MS, Leases } from './leases.js';
import { PgSession, loadSession, type LoadedSession, type PgSessionContext } from './pg-session.js';
import { migrate } from './schema.js';
import { StateFeed } from './state-feed.js';
import { pgSessionSummaries } from './summaries.js';
import { redactStoreUrl } from './store-url.js';

/** The NOTIFY channel state changes travel on. */
const CHANNEL = 'auggy_state';

export interface PgStoreOptions {
  url: string;
  agent: StoreAgent;
  /** How long a writer lease outlives its last renewal; 30 s unless a test wants less. */
  leaseMs?: number;
  log(message: string): void;
}

function emptySession(header: SessionHeader): LoadedSession {
  return { header, entries: [header], lastEventId: '0', states: new Map() };
}

/** Sessions of one agent share a database with other agents' by this key: its id, else its name. */
export function agentKeyOf(agent: StoreAgent): string {
  return agent.id ?? `name:${agent.name}`;
}

/**
 * Sessions in PostgreSQL. Opening the store connects, migrates the schema under an advisory lock
 * and starts listening for other replicas' state changes; a problem with any of it is one
 * SessionError that names the store and what to check.
 */
export async function openPgStore(options: PgStoreOptions): Promise<SessionStore> {
  const { url, agent, log } = options;
  const { default: pg } = await import('pg');
  const where = redactStoreUrl(url);
  const agentKey = agentKeyOf(agent);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const processOwner = `${hostname()}:${process.pid}:${randomHex(4)}`;
  const config = { connectionString: url, application_name: 'auggy', connectionTimeoutMillis: 10_000 };
  // Under a burst, runs queue for a connection longer than one takes to open: wait for a free one.
  const pool: Pool = new pg.Pool({ ...config, connectionTimeoutMillis: 120_000, max: 16, allowExitOnIdle: true });
  // An idle connection the server drops must not end the process; the next query reconnects.
  pool.on('error', (error) => log(`session store: ${describeStoreError(error, url)}`));

  const handles = new Map<string, Set<PgSession>>();
  const leases = new Leases({ pool, agentKey, processOwner, leaseMs, log });
  const feed = new StateFeed({
    connect: (clientConfig) => new pg.Client(clientConfig),
    config,
    channel: CHANNEL,
    log,
    onChange(change) {
      if (change.agentKey !== agentKey) return;
      for (const handle of handles.get(change.sessionId) ?? []) {
        if (handle.token === change.token) continue;
        handle.stateChangedElsewhere(change.name).catch((error: unknown) => log(`session store: ${describeStoreError(error, url)}`));
      }
    },
    onResumed() {
      for (const set of handles.values()) for (const handle of set) handle.refresh().catch(() => undefined);
    },
  });

  try {
    await migrate(pool);
    await feed.start();
  } catch (error) {
    await feed.close();
    await pool.end().catch(() => undefined);
    throw storeError(error, url);
  }

  const context: PgSessionContext = {
    pool,
    url,
    agentKey,
    processOwner,
    channel: CHANNEL,
    location: (sessionId) => `${where}, session ${sessionId}`,
    acquireWriter: (sessionId) => store.acquireWriter(sessionId),
    forget(handle) {
      handles.get(handle.id)?.delete(handle);
      if (handles.get(handle.id)?.size === 0) handles.delete(handle.id);
    },
  };

  /** This agent's sessions where something was said, newest first; `limit` of them when given. */
  async function spoken(limit?: number): Promise<string[]> {
    // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
    const { rows } = await pool.query<{ id: string }>(
      `SELECT s.id FROM auggy_sessions s WHERE s.agent_key = $1
         AND EXISTS (SELECT 1 FROM auggy_events e WHERE e.agent_key = s.agent_key AND e.session_id = s.id AND e.kind = 'user')
       ORDER BY s.updated_at DESC, s.id DESC LIMIT $2`,
      [agentKey, limit ?? null],
    );
    return rows.map((row) => row.id);
  }

  async function newest(): Promise<string | undefined> {
    return (await spoken(1))[0];
  }

  /** The header when this call created the session, undefined when it existed already. */
  async function create(id: string): Promise<SessionHeader | undefined> {
    const header: SessionHeader = { kind: 'header', version: 1, sessionId: id, agentId: agent.id, agentName: agent.name, createdAt: new Date().toISOString() };
    const result = await pool.query('INSERT INTO auggy_sessions (agent_key, id, agent_name, header) VALUES ($1, $2, $3, $4::json) ON CONFLICT DO NOTHING', [
      agentKey,
      id,
      agent.name,
      JSON.stringify(header),
    ]);
    return result.rowCount === 1 ? header : undefined;
  }

  async function open(options: StoreOpenOptions): Promise<PgSession> {
    let id = options.sessionId;
    if (id !== undefined && !isValidSessionId(id)) {
      throw new SessionError(`"${id}" is not a session id (letters, digits, - and _ only, at most 128 characters)`);
    }
    if (id === undefined && options.continueLatest) id = await newest();
    let created: SessionHeader | undefined;
    if (id === undefined) {
      id = newSessionId();
      created = await create(id);
    }
    let loaded = created ? emptySession(created) : await loadSession(pool, agentKey, id);
    if (!loaded) {
      if (!options.createIfMissing) throw new SessionNotFoundError(id, where);
      created = await create(id);
      // Created by someone else a moment ago: read what is there.
      loaded = created ? emptySession(created) : await loadSession(pool, agentKey, id);
      if (!loaded) throw new SessionError(`session "${id}" could not be created in ${where}`);
    }
    const handle = new PgSession(context, id, created === undefined, loaded);
    const set = handles.get(id) ?? new Set();
    set.add(handle);
    handles.set(id, set);
    return handle;
  }

  const store: SessionStore = {
    kind: 'postgres',
    location: where,
    shared: true,
    async open(options) {
      try {
        const handle = await open(options);
        return options.observer ? observerView(handle) : handle;
      } catch (error) {
        throw storeError(error, url);
      }
    },
    list: () => spoken(),
    async summaries() {
      try {
        return await pgSessionSummaries(pool, agentKey);
      } catch (error) {
        throw storeError(error, url);
      }
    },
    async statesNamed(prefix) {
      try {
        const { rows } = await pool.query<{ session_id: string; name: string; value: unknown }>(
          'SELECT session_id, name, value FROM auggy_state WHERE agent_key = $1 AND starts_with(name, $2) ORDER BY session_id, name',
          [agentKey, prefix],
        );
        // A row held for a merge before its first write reads null: nothing is there yet.
        return rows.filter((row) => row.value !== null).map((row) => ({ sessionId: row.session_id, name: row.name, value: row.value }));
      } catch (error) {
        throw storeError(error, url);
      }
    },
    async acquireWriter(sessionId) {
      try {
        return await leases.acquire(sessionId);
      } catch (error) {
        if (error instanceof SessionBusyError) throw error;
        throw storeError(error, url);
      }
    },
    async check() {
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        throw storeError(error, url);
      }
    },
    async close() {
      await feed.close();
      await pool.end().catch(() => undefined);
    },
  };
  return store;
}
