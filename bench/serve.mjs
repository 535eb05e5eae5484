// `auggy serve` under load: N concurrent AG-UI runs (one thread each) on the scripted demo
// agent over loopback. Figures only: nothing here passes or fails on time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { oneRun, startServe } from './serve-client.mjs';
import { copyAgentFolder } from './demo-copy.mjs';

const CONCURRENT_RUNS = Number(process.env.BENCH_SERVE_RUNS ?? 200);
const SEQUENTIAL_RUNS = Number(process.env.BENCH_SERVE_SEQUENTIAL ?? 1000);
const WARM_UP_RUNS = Math.min(100, Math.floor(SEQUENTIAL_RUNS / 10));
const WARM_UP_BURSTS = Number(process.env.BENCH_SERVE_WARM_UP_BURSTS ?? 3);
const MEASURED_BURSTS = Number(process.env.BENCH_SERVE_BURSTS ?? 5);

function row(name, value, unit) {
  return { name, value, unit };
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/**
 * Peak resident memory of a process. Linux keeps the high-water mark itself (VmHWM); elsewhere
 * `ps` is sampled while the load runs, which can only under-report a short spike.
 */
function memoryWatch(pid) {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) {
    return {
      source: 'VmHWM',
      stop: () => Number(/VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(status, 'utf8'))?.[1] ?? NaN) * 1024,
    };
  }
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024);
    } catch {
      // The process may be between samples of exiting; the peak so far stands.
    }
  };
  const timer = setInterval(sample, 25);
  return {
    source: 'ps samples',
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Resident memory of a process right now (Linux only; NaN elsewhere). */
function currentRss(pid) {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return NaN;
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(status, 'utf8'))?.[1] ?? NaN) * 1024;
}

/**
 * CPU time (user + system) the process has used, in ms (Linux only; NaN elsewhere). Beside the
 * wall-clock figures it tells what a run costs even when other work shares the machine.
 */
function cpuMs(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return NaN;
  const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CONCURRENT_RUNS runs at once, each on a new thread: how fast they all finished, their latency,
 * and the CPU the server and this client spent per run.
 */
async function burst(url, pid) {
  const serverCpu = cpuMs(pid);
  // The load client shares the machine's cores with the server: what it spends bounds runs/s too.
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: CONCURRENT_RUNS }, () => oneRun(url, 'hello')));
  const ms = performance.now() - started;
  const clientSpent = process.cpuUsage(clientCpu);
  const latencies = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    runsPerSecond: (CONCURRENT_RUNS / ms) * 1000,
    serverCpuPerRun: (cpuMs(pid) - serverCpu) / CONCURRENT_RUNS,
    clientCpuPerRun: (clientSpent.user + clientSpent.system) / 1000 / CONCURRENT_RUNS,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    notCompleted: runs.filter((r) => !r.completed).length,
  };
}

export async function benchServe({ root = resolve(import.meta.dirname, '..'), bin = join(root, 'bin', 'auggy.js'), workdir } = {}) {
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-serve-'));
  const agentDir = join(base, 'serve-demo');
  copyAgentFolder(join(root, 'examples', 'demo'), agentDir);

  const launched = performance.now();
  const server = startServe(bin, agentDir);
  const url = await server.url;
  const startup = performance.now() - launched;
  try {
    // One run first, so the first burst measures serving rather than loading the model modules.
    await oneRun(url, 'hello');
    const memory = memoryWatch(server.child.pid);
    // The first burst meets a server V8 has not optimized yet; a server taking hundreds of runs a
    // second is past that within its first second, so the throughput figures are of the bursts
    // after WARM_UP_BURSTS, the median of MEASURED_BURSTS (the machine's other work moves single
    // bursts by a third either way). The first burst is reported too, as what a cold server does.
    const first = await burst(url, server.child.pid);
    for (let i = 1; i < WARM_UP_BURSTS; i++) await burst(url, server.child.pid);
    const measured = [];
    for (let i = 0; i < MEASURED_BURSTS; i++) measured.push(await burst(url, server.child.pid));
    const peakRss = memory.stop();
    const median = (pick) =>
      percentile(
        measured.map(pick).sort((a, b) => a - b),
        0.5,
      );
    const notCompleted = [first, ...measured].reduce((sum, b) => sum + b.notCompleted, 0);

    // Memory over many runs one after another: after warm-up it should stay flat.
    let sequentialFailed = 0;
    let afterWarmUp = NaN;
    // Halfway too: V8 grows its heap to the allocation rate over the first few hundred runs, so
    // whether RSS has levelled off shows between the middle and the end, not from the warm-up alone.
    let halfway = NaN;
    const sequentialStart = performance.now();
    for (let i = 0; i < SEQUENTIAL_RUNS; i++) {
      if (!(await oneRun(url, 'hello')).completed) sequentialFailed++;
      if (i + 1 === WARM_UP_RUNS) afterWarmUp = currentRss(server.child.pid);
      if (i + 1 === Math.floor(SEQUENTIAL_RUNS / 2)) halfway = currentRss(server.child.pid);
    }
    const sequentialMs = performance.now() - sequentialStart;
    const afterAll = currentRss(server.child.pid);
    const mib = (bytes) => bytes / (1024 * 1024);
    return [
      row('auggy serve: start to listening', startup, 'ms'),
      row(`auggy serve: first ${CONCURRENT_RUNS} concurrent runs, from cold`, first.runsPerSecond, 'runs/s'),
      row('auggy serve: first burst latency p99', first.p99, 'ms'),
      row(
        `auggy serve: ${CONCURRENT_RUNS} concurrent runs (scripted)`,
        median((b) => b.runsPerSecond),
        'runs/s',
      ),
      row(
        'auggy serve: server CPU per run (burst)',
        median((b) => b.serverCpuPerRun),
        'ms',
      ),
      row(
        'auggy serve: load client CPU per run (burst)',
        median((b) => b.clientCpuPerRun),
        'ms',
      ),
      row(
        'auggy serve: run latency p50',
        median((b) => b.p50),
        'ms',
      ),
      row(
        'auggy serve: run latency p99',
        median((b) => b.p99),
        'ms',
      ),
      row(`auggy serve: peak server RSS (${memory.source})`, peakRss / (1024 * 1024), 'MiB'),
      row('auggy serve: runs not completed', notCompleted, `of ${CONCURRENT_RUNS * (WARM_UP_BURSTS + MEASURED_BURSTS)}`),
      row(`auggy serve: ${SEQUENTIAL_RUNS} sequential runs`, (SEQUENTIAL_RUNS / sequentialMs) * 1000, 'runs/s'),
      row(`auggy serve: RSS after ${WARM_UP_RUNS} sequential runs`, mib(afterWarmUp), 'MiB'),
      row(`auggy serve: RSS after ${Math.floor(SEQUENTIAL_RUNS / 2)} sequential runs`, mib(halfway), 'MiB'),
      row(`auggy serve: RSS after ${SEQUENTIAL_RUNS} sequential runs`, mib(afterAll), 'MiB'),
      row('auggy serve: sequential runs not completed', sequentialFailed, `of ${SEQUENTIAL_RUNS}`),
    ];
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    if (!workdir) rmSync(base, { recursive: true, force: true });
  }
}

// Run on its own: node bench/serve.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchServe()) console.log(`  ${r.name.padEnd(48)}  ${r.value.toFixed(1)} ${r.unit}`);
}
