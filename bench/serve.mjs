// `auggy serve` under load: N concurrent AG-UI runs (one thread each) on the scripted demo
// agent over loopback. Figures only: nothing here passes or fails on time.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { oneRun, startServe } from './serve-client.mjs';

const CONCURRENT_RUNS = Number(process.env.BENCH_SERVE_RUNS ?? 200);
const SEQUENTIAL_RUNS = Number(process.env.BENCH_SERVE_SEQUENTIAL ?? 1000);
const WARM_UP_RUNS = Math.min(100, Math.floor(SEQUENTIAL_RUNS / 10));

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

/** One AG-UI run on its own thread; resolves to its latency and how it ended. */

export async function benchServe({ root = resolve(import.meta.dirname, '..'), bin = join(root, 'bin', 'auggy.js'), workdir } = {}) {
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-serve-'));
  const agentDir = join(base, 'serve-demo');
  cpSync(join(root, 'examples', 'demo'), agentDir, { recursive: true });

  const launched = performance.now();
  const server = startServe(bin, agentDir);
  const url = await server.url;
  const startup = performance.now() - launched;
  try {
    // One run first, so the burst measures serving rather than loading the model modules.
    await oneRun(url, 'hello');
    const memory = memoryWatch(server.child.pid);
    const burstCpu = cpuMs(server.child.pid);
    // The load client shares the machine's cores with the server: what it spends bounds runs/s too.
    const clientCpu = process.cpuUsage();
    const burstStart = performance.now();
    const runs = await Promise.all(Array.from({ length: CONCURRENT_RUNS }, () => oneRun(url, 'hello')));
    const burstMs = performance.now() - burstStart;
    const burstCpuPerRun = (cpuMs(server.child.pid) - burstCpu) / CONCURRENT_RUNS;
    const clientSpent = process.cpuUsage(clientCpu);
    const clientCpuPerRun = (clientSpent.user + clientSpent.system) / 1000 / CONCURRENT_RUNS;
    const peakRss = memory.stop();
    const latencies = runs.map((r) => r.ms).sort((a, b) => a - b);
    const notCompleted = runs.filter((r) => !r.completed).length;

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
      row(`auggy serve: ${CONCURRENT_RUNS} concurrent runs (scripted)`, (CONCURRENT_RUNS / burstMs) * 1000, 'runs/s'),
      row('auggy serve: server CPU per run (burst)', burstCpuPerRun, 'ms'),
      row('auggy serve: load client CPU per run (burst)', clientCpuPerRun, 'ms'),
      row('auggy serve: run latency p50', percentile(latencies, 0.5), 'ms'),
      row('auggy serve: run latency p99', percentile(latencies, 0.99), 'ms'),
      row(`auggy serve: peak server RSS (${memory.source})`, peakRss / (1024 * 1024), 'MiB'),
      row('auggy serve: runs not completed', notCompleted, `of ${CONCURRENT_RUNS}`),
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
