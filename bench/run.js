#!/usr/bin/env node
// Start-up and throughput figures, each beside a `node -e 0` baseline measured in the same run.
// Figures only: nothing here passes or fails on time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { copyAgentFolder } from './demo-copy.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'auggy.js');
const runs = Number(process.env.BENCH_RUNS ?? 15);

function timeCommand(args, options = {}) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', ...options });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;

/**
 * Process CPU time (user + system) of each command, median: bash's `times` reports what its
 * children used (getrusage), which Node cannot ask of a child. On a shared machine it swings far
 * less than wall time; the commands take turns, so a busy spell weighs on each alike. Undefined
 * without bash.
 */
function cpuOfCommands(commands) {
  if (!hasBash) return undefined;
  const seconds = (text) => {
    const [, minutes, secs] = /^(\d+)m([\d.]+)s$/.exec(text);
    return Number(minutes) * 60 + Number(secs);
  };
  const samples = commands.map(() => []);
  for (let i = 0; i < runs; i++) {
    commands.forEach(({ args, options }, index) => {
      const script = '"$@" >/dev/null 2>&1; status=$?; times; exit $status';
      const result = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...args], { encoding: 'utf8', ...options });
      if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
      // The second line of `times` is the children's "user system".
      const [user, system] = result.stdout.trim().split('\n').at(-1).split(' ');
      samples[index].push((seconds(user) + seconds(system)) * 1000);
    });
  }
  return samples.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

function row(name, value, unit) {
  return { name, value, unit };
}

const workdir = mkdtempSync(join(tmpdir(), 'auggy-bench-'));
const demo = join(workdir, 'demo');
copyAgentFolder(join(root, 'examples', 'demo'), demo);

const rows = [];
const baseline = timeCommand(['-e', '0']);
rows.push(row('node -e 0 (baseline)', baseline.median, 'ms median'));
const version = timeCommand([bin, '--version']);
rows.push(row('auggy --version', version.median, 'ms median'));
rows.push(row('auggy --version over baseline', version.median - baseline.median, 'ms'));
const print = timeCommand([bin, 'run', demo, '--print', 'hello'], { env: { ...process.env, NO_COLOR: '1' } });
rows.push(row('auggy run --print (scripted demo)', print.median, 'ms median'));
rows.push(row('auggy run --print over baseline', print.median - baseline.median, 'ms'));
const printEnv = { env: { ...process.env, NO_COLOR: '1' } };
const cpu = cpuOfCommands([{ args: ['-e', '0'] }, { args: [bin, '--version'] }, { args: [bin, 'run', demo, '--print', 'hello'], options: printEnv }]);
if (cpu !== undefined) {
  const [cpuBaseline, cpuVersion, cpuPrint] = cpu;
  const times = (value) => `ms CPU median (${(value / cpuBaseline).toFixed(2)}x node -e 0)`;
  rows.push(row('node -e 0 (baseline), CPU user+sys', cpuBaseline, 'ms CPU median'));
  rows.push(row('auggy --version, CPU user+sys', cpuVersion, times(cpuVersion)));
  rows.push(row('auggy run --print (scripted demo), CPU', cpuPrint, times(cpuPrint)));
}

// Host-specific figures live beside their hosts' benches, when present.
for (const [file, exportName] of [
  ['tui.mjs', 'benchTui'],
  ['serve.mjs', 'benchServe'],
  ['big-reply.mjs', 'benchBigReply'],
  ['stream-cpu.mjs', 'benchStreamCpu'],
  ['store.mjs', 'benchStore'],
  ['context.mjs', 'benchContext'],
]) {
  const path = join(root, 'bench', file);
  if (!existsSync(path)) continue;
  const module = await import(path);
  rows.push(...(await module[exportName]({ root, bin, workdir })));
}
rmSync(workdir, { recursive: true, force: true });

// Start-up figures also as a multiple of the baseline: the machine's speed cancels out.
const RELATIVE = /^auggy (--version|run --print \(scripted demo\)|run: start to prompt drawn|run: start to input ready|serve: start to listening)$/;
for (const r of rows) {
  if (RELATIVE.test(r.name) && typeof r.value === 'number') r.unit += ` (${(r.value / baseline.median).toFixed(2)}x node -e 0)`;
}
const width = Math.max(...rows.map((r) => r.name.length));
console.log(`auggy bench (${runs} runs each, node ${process.version})`);
for (const r of rows) console.log(`  ${r.name.padEnd(width)}  ${typeof r.value === 'number' ? r.value.toFixed(1) : r.value} ${r.unit}`);
