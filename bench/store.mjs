// Two `auggy serve` replicas on one PostgreSQL store: N concurrent AG-UI runs (one thread each)
// spread over both, on the scripted demo agent. The cluster is a throwaway one started here.
// Figures only: nothing here passes or fails on time.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { oneRun, startServe } from './serve-client.mjs';
import { copyAgentFolder } from './demo-copy.mjs';

const CONCURRENT_RUNS = Number(process.env.BENCH_STORE_RUNS ?? 200);

function row(name, value, unit) {
  return { name, value, unit };
}

function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version && join(root, version, 'bin');
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** initdb + pg_ctl in a temp folder, as the `postgres` user when running as root. */
async function startCluster(bin) {
  const root = mkdtempSync(join(tmpdir(), 'auggy-bench-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  if (asRoot)
    chownSync(root, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
  run('initdb', ['-D', data, '-U', 'auggy', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(root, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    'start',
  ]);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'auggy', 'bench']);
  return {
    url: `postgres://auggy@127.0.0.1:${port}/bench`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

export async function benchStore({ root = resolve(import.meta.dirname, '..'), bin = join(root, 'bin', 'auggy.js'), workdir } = {}) {
  const pgBin = postgresBin();
  if (!pgBin) return [row('auggy serve --store: skipped (PostgreSQL is not installed; .ci/run installs it)', 0, '')];
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-store-'));
  const cluster = await startCluster(pgBin);
  // Each replica has its own copy of the folder, as on two machines.
  const dirs = ['replica-a', 'replica-b'].map((name) => {
    const dir = join(base, name);
    copyAgentFolder(join(root, 'examples', 'demo'), dir);
    return dir;
  });
  const replicas = dirs.map((dir) => startServe(bin, dir, ['--store', cluster.url]));
  try {
    const urls = await Promise.all(replicas.map((replica) => replica.url));
    await Promise.all(urls.map((url) => oneRun(url)));
    const burstStart = performance.now();
    const runs = await Promise.all(Array.from({ length: CONCURRENT_RUNS }, (_, i) => oneRun(urls[i % urls.length])));
    const burstMs = performance.now() - burstStart;
    const latencies = runs.map((r) => r.ms).sort((a, b) => a - b);
    return [
      row(`auggy serve --store: ${CONCURRENT_RUNS} concurrent runs on 2 replicas`, (CONCURRENT_RUNS / burstMs) * 1000, 'runs/s'),
      row('auggy serve --store: run latency p50', percentile(latencies, 0.5), 'ms'),
      row('auggy serve --store: run latency p99', percentile(latencies, 0.99), 'ms'),
      row('auggy serve --store: runs not completed', runs.filter((r) => !r.completed).length, `of ${CONCURRENT_RUNS}`),
    ];
  } finally {
    for (const replica of replicas) replica.child.kill('SIGTERM');
    await Promise.all(replicas.map((replica) => replica.exited));
    cluster.stop();
    if (!workdir) rmSync(base, { recursive: true, force: true });
  }
}

// Run on its own: node bench/store.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchStore()) console.log(`  ${r.name.padEnd(56)}  ${r.value.toFixed(1)} ${r.unit}`);
}
