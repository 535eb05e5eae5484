import { execa } from 'execa';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';

/** A throwaway PostgreSQL cluster of the test's own, on 127.0.0.1 and a free port. */
export interface PgCluster {
  port: number;
  /** `postgres://auggy@127.0.0.1:PORT/<database>`. */
  url(database?: string): string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs one statement as the cluster's superuser and answers its rows. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(database: string, sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * The server's binaries: the newest under Debian's path (Debian keeps them out of PATH), else the
 * first folder on PATH that has both initdb and pg_ctl (Homebrew, Postgres.app, other distributions).
 */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .find((folder) => folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl')));
  // A link on PATH (/usr/local/bin/initdb) stands for the install it points into.
  return onPath === undefined ? undefined : dirname(realpathSync(join(onPath, 'initdb')));
}

/**
 * Whether this machine can run the store's tests. Under CI they always run (`.ci/run` installs
 * PostgreSQL), so a missing server fails there; elsewhere (a laptop without it) they are skipped
 * with one line saying why, instead of failing the run.
 */
export const postgresAvailable = postgresBinDir() !== undefined || process.env.CI === 'true';

if (!postgresAvailable) {
  console.warn('PostgreSQL is not installed (no initdb under /usr/lib/postgresql or on PATH): its store tests are skipped. Install it to run them.');
}

/** `describe` for tests that need PostgreSQL: skipped, with the line above, where it is not installed. */
export const describeWithPostgres = describe.skipIf(!postgresAvailable);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * initdb + pg_ctl in a temp folder. PostgreSQL refuses to run as root, so under root (CI
 * containers) the cluster belongs to the `postgres` user and its commands run through runuser.
 * Trust authentication on loopback and the socket in the temp folder: nothing outside it is used.
 */
export async function startPostgres(): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql; .ci/run does it)');
  const root = mkdtempSync(join(tmpdir(), 'auggy-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    asRoot ? execa('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : execa(join(bin, command), args);
  if (asRoot) {
    const { stdout } = await execa('id', ['-u', 'postgres']);
    const { stdout: gid } = await execa('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout), Number(gid));
  }
  await run('initdb', ['-D', data, '-U', 'auggy', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const started = await run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(root, 'server.log'),
      '-w',
      '-t',
      '120',
      '-o',
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      'start',
    ]).catch((error: unknown) => error);
    if (!(started instanceof Error)) break;
    // Another process took the port between the check and the start: pick another.
    if (attempt >= 3) throw started;
  }
  const url = (database = 'postgres') => `postgres://auggy@127.0.0.1:${port}/${database}`;
  const query = async <T extends pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    query,
    async createDatabase(name) {
      await query('postgres', `CREATE DATABASE ${name}`);
      return url(name);
    },
    async stop() {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * One cluster for a whole test file (started before its tests, removed after) and a fresh, empty
 * database for each test that asks: `const pg = usePostgres(); ... await pg.freshDatabase()`.
 */
export function usePostgres(): { cluster(): PgCluster; freshDatabase(): Promise<{ url: string; database: string }> } {
  let cluster: PgCluster | undefined;
  let count = 0;
  beforeAll(async () => {
    if (postgresAvailable) cluster = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not started yet (usePostgres() at the top of the file, used inside tests)');
    return cluster;
  };
  return {
    cluster: started,
    async freshDatabase() {
      const database = `test_${++count}`;
      return { url: await started().createDatabase(database), database };
    },
  };
}
