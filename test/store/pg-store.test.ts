import { expect, it } from 'vitest';
import { openPgStore } from '../../src/session/postgres/pg-store.js';
import { SCHEMA_VERSION } from '../../src/session/postgres/schema.js';
import { SessionBusyError, type SessionStore } from '../../src/session/store.js';
import { SessionNotFoundError } from '../../src/session/session.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';

const pg = usePostgres();

const agent = { dir: '/nonexistent/agent', name: 'fixture', id: 'aug1_store-test' };

async function freshDatabase(): Promise<string> {
  return (await pg.freshDatabase()).url;
}

function query<T extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return pg.cluster().query<T>(url.split('/').pop() ?? '', sql, params);
}

function open(url: string, leaseMs?: number): Promise<SessionStore> {
  return openPgStore({ url, agent, leaseMs, log: () => undefined });
}

function waitFor<T>(check: () => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const poll = () => {
      const value = check();
      if (value !== undefined) resolve(value);
      else setTimeout(poll, 20);
    };
    poll();
  });
}

describeWithPostgres('the PostgreSQL session store', () => {
  it('creates its schema on an empty database, and a second start finds it current', async () => {
    const url = await freshDatabase();
    const first = await open(url);
    await first.close();
    const second = await open(url);
    await second.close();
    const versions = await query<{ version: number }>(url, 'SELECT version FROM auggy_schema_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual([SCHEMA_VERSION]);
    const tables = await query<{ name: string }>(
      url,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((row) => row.name)).toEqual(['auggy_events', 'auggy_leases', 'auggy_schema_migrations', 'auggy_sessions', 'auggy_state']);
  });

  it('replicas starting together migrate once', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([open(url), open(url), open(url), open(url)]);
    await Promise.all(stores.map((store) => store.close()));
    const versions = await query<{ version: number }>(url, 'SELECT version FROM auggy_schema_migrations');
    expect(versions).toHaveLength(1);
  });

  it('keeps entries in order and state files, and another store reads them back whole', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const session = await store.open({});
    expect(session.resumed).toBe(false);
    for (let i = 0; i < 50; i++) session.append({ kind: 'user', turnId: `t${i}`, text: `message ${i} \u0000 with a NUL`, at: 'now' });
    session.writeState('board.json', { version: 1, lines: { queue: { text: 'docs', by: 'person', at: 'now' } } });
    await session.flush();
    const other = await open(url);
    const again = await other.open({ sessionId: session.id });
    expect(again.resumed).toBe(true);
    const kinds = again.entries().entries.map((entry) => (entry.kind === 'user' ? entry.text : entry.kind));
    expect(kinds[0]).toBe('header');
    expect(kinds.slice(1)).toEqual(Array.from({ length: 50 }, (_, i) => `message ${i} \u0000 with a NUL`));
    expect(again.readState('board.json')).toEqual({ status: 'ok', value: { version: 1, lines: { queue: { text: 'docs', by: 'person', at: 'now' } } } });
    expect(await other.list()).toEqual([session.id]);
    expect((await other.open({ continueLatest: true })).id).toBe(session.id);
    await expect(other.open({ sessionId: 'missing' })).rejects.toThrow(/no session "missing"/);
    await expect(other.open({ sessionId: 'missing' })).rejects.toBeInstanceOf(SessionNotFoundError);
    await store.close();
    await other.close();
  });

  it("two writers of one state file keep each other's parts, and the other replica hears the change", async () => {
    const url = await freshDatabase();
    const a = await open(url);
    const b = await open(url);
    const mine = await a.open({});
    mine.writeState('board.json', { version: 1, lines: {} });
    await mine.flush();
    const theirs = await b.open({ sessionId: mine.id, observer: true });
    const heard: string[] = [];
    mine.watchState((name) => heard.push(name));
    theirs.writeState('board.json', { version: 1, lines: { queue: { text: 'from the person', by: 'person', at: '1' } } });
    mine.writeState('board.json', { version: 1, lines: { progress: { text: 'from the agent', by: 'agent', at: '2' } } });
    await Promise.all([theirs.flush(), mine.flush()]);
    const merged = await waitFor(() => {
      const read = mine.readState('board.json');
      const lines = read.status === 'ok' ? (read.value as { lines: Record<string, unknown> }).lines : {};
      return Object.keys(lines).length === 2 ? lines : undefined;
    });
    expect(Object.keys(merged).sort()).toEqual(['progress', 'queue']);
    expect(heard).toContain('board.json');
    // The observer appends nothing: the log is the writer's.
    theirs.append({ kind: 'user', turnId: 'x', text: 'not logged', at: 'now' });
    await theirs.flush();
    const reread = await (await b.open({ sessionId: mine.id })).entries();
    expect(reread.entries.some((entry) => entry.kind === 'user')).toBe(false);
    await a.close();
    await b.close();
  });

  it('one writer per session across stores; a lease left by a dead writer expires', async () => {
    const url = await freshDatabase();
    const a = await open(url, 600);
    const b = await open(url, 600);
    const session = await a.open({});
    // Taken through the handle, as a run takes it: the handle's appends are then that run's.
    const lease = await session.acquireWriter();
    await expect(b.acquireWriter(session.id)).rejects.toThrow(SessionBusyError);
    await expect(b.acquireWriter(session.id)).rejects.toThrow(new RegExp(`session ${session.id} is in use by another auggy \\(pid ${process.pid} on `));
    // Renewals keep it held well past one lease length.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(b.acquireWriter(session.id)).rejects.toThrow(SessionBusyError);
    // While b would be refused, a's appends stay fenced in its favour.
    await session.append({ kind: 'user', turnId: 't', text: 'a writes', at: 'now' });
    await lease.release();
    const second = await b.acquireWriter(session.id);
    await second.release();
    // A writer that died: its row stays until the expiry passes, then the next writer takes it.
    await query(
      url,
      "INSERT INTO auggy_leases VALUES ($1, $2, 'gone:1:x#1', 1, 'gone', now(), now() + interval '500 milliseconds') ON CONFLICT (agent_key, session_id) DO UPDATE SET owner = EXCLUDED.owner, pid = 1, host = 'gone', expires_at = EXCLUDED.expires_at",
      [agent.id, session.id],
    );
    await expect(b.acquireWriter(session.id)).rejects.toThrow(/pid 1 on gone/);
    // The dead writer's lease still holds: what a writes between runs (echoes of the other run's
    // state changes) is left out rather than interleaved, and a's handle stays usable.
    await session.append({ kind: 'event', event: { type: 'CUSTOM', name: 'between.runs', value: {} }, at: 'now' });
    expect(await query(url, "SELECT 1 FROM auggy_events WHERE entry::text LIKE '%between.runs%'")).toEqual([]);
    let after: Awaited<ReturnType<SessionStore['acquireWriter']>> | undefined;
    while (!after) {
      after = await b.acquireWriter(session.id).catch(() => undefined);
      if (!after) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await after.release();
    // A run whose lease was taken over (it expired): what it writes after that is refused, and said.
    const run = await session.acquireWriter();
    await query(url, "UPDATE auggy_leases SET owner = 'gone:1:x#1', pid = 1, host = 'gone' WHERE session_id = $1", [session.id]);
    await expect(session.append({ kind: 'user', turnId: 't', text: 'refused', at: 'now' })).rejects.toThrow(/another auggy holds session/);
    expect(await query(url, "SELECT 1 FROM auggy_events WHERE entry->>'text' = 'refused'")).toEqual([]);
    await run.release();
    await a.close();
    await b.close();
  });
});
