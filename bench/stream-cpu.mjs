// What a long streamed reply costs the chat: the same reply (about 17,000 characters of
// markdown: headings, prose, lists, code, tables) streamed at about 40 chunks a second by a
// loopback Chat Completions server, once to the chat in a real pseudo-terminal (`script`) and
// once to `auggy run --print`, and the CPU seconds (user + system) each process used for it.
// A chat that redid work on every chunk in proportion to the reply's length showed here as a
// multiple of --print's CPU that grew with the reply.
// Figures only: nothing here passes or fails on time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startReplyServer, writeAgent } from './reply-server.mjs';

const REPLY_CHARS = Number(process.env.BENCH_STREAM_CHARS ?? 17_000);
const CHUNKS_PER_SECOND = Number(process.env.BENCH_STREAM_RATE ?? 40);
const CHUNK_CHARS = Number(process.env.BENCH_STREAM_CHUNK ?? 24);
const LAST_WORDS = 'that is the whole report';

/** A long reply as models write them: sections of prose, a list, a code block and a table, over and over. */
export function longReply(chars) {
  const section = (n) =>
    [
      `## Part ${n}: the rollout of service ${n}`,
      '',
      `The build of service ${n} passed on the first try, and the image was pushed to the registry before the window opened. ` +
        'Nothing in the logs points at a regression, but the latency of the **slowest endpoint** rose by a few milliseconds, ' +
        'which is within the budget we agreed on. The `canary` ran for twenty minutes before the rest of the fleet followed.',
      '',
      '- the health checks stayed green through the whole rollout',
      '- two pods restarted once each, on a node that was being drained',
      `- the error rate stayed under 0.1% for service ${n}`,
      '- the dashboards were updated with the new panels',
      '',
      '```ts',
      `export async function rollout${n}(fleet: Fleet): Promise<Report> {`,
      '  const canary = await fleet.deploy({ share: 0.05 });',
      '  if (!(await canary.healthy())) return canary.rollback();',
      '  return fleet.deploy({ share: 1 });',
      '}',
      '```',
      '',
      '| region | status | pods | p99 latency |',
      '|---|---|---|---|',
      `| eu-west | healthy | ${n + 3} | 41 ms |`,
      `| us-east | healthy | ${n + 5} | 38 ms |`,
      '| ap-south | degraded | 2 | 97 ms |',
      '',
    ].join('\n');
  let text = '';
  for (let n = 1; text.length < chars; n++) text += `${section(n)}\n`;
  return `${text.slice(0, chars).replace(/\s+\S*$/, '')}\n\n${LAST_WORDS}.`;
}

/** The CPU seconds `times` (in the shell that ran the command) reports for its children, user + system. */
function timesSeconds(text) {
  const [user, system] = text.trim().split('\n').at(-1).split(' ');
  const seconds = (value) => {
    const [, minutes, secs] = /^(\d+)m([\d.]+)s$/.exec(value);
    return Number(minutes) * 60 + Number(secs);
  };
  return seconds(user) + seconds(system);
}

const shellQuote = (value) => `'${value.replace(/'/g, `'\\''`)}'`;
/** `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"` profiles both runs. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean).map(shellQuote).join(' ');

/** `auggy run --print go` through a shell that reports its CPU. */
function printRun(bin, dir, timesFile) {
  return new Promise((resolve, reject) => {
    const script = `${shellQuote(process.execPath)} ${nodeArgs} ${shellQuote(bin)} run ${shellQuote(dir)} --print go >/dev/null; status=$?; times > ${shellQuote(timesFile)}; exit $status`;
    const child = spawn('sh', ['-c', script], { env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(timesSeconds(readFileSync(timesFile, 'utf8'))) : reject(new Error(`--print exited ${status}`))));
  });
}

/**
 * The chat in a pseudo-terminal (100×30): "go" typed once the prompt is ready, Ctrl+D once the
 * turn is over (the status line says `completed`), the CPU of the chat's process alone.
 */
function chatRun(bin, dir, timesFile) {
  return new Promise((resolve, reject) => {
    const chat = `stty cols 100 rows 30; ${shellQuote(process.execPath)} ${nodeArgs} ${shellQuote(bin)} run ${shellQuote(dir)}; times > ${shellQuote(timesFile)}`;
    const child = spawn('script', ['-q', '-e', '-c', chat, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    let stage = 'starting';
    const timeout = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (data) => {
      seen = (seen + data).slice(-20_000);
      if (stage === 'starting' && seen.includes('Type a message')) {
        stage = 'streaming';
        seen = '';
        child.stdin.write('go\r');
      } else if (stage === 'streaming' && seen.includes(LAST_WORDS) && /completed/.test(seen.slice(seen.lastIndexOf(LAST_WORDS)))) {
        stage = 'quitting';
        child.stdin.write('\u0004');
      }
    });
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timeout);
      if (stage !== 'quitting' || status !== 0) reject(new Error(`the chat never finished the reply (${stage}, exit ${status}):\n${seen.slice(-500)}`));
      else resolve(timesSeconds(readFileSync(timesFile, 'utf8')));
    });
  });
}

export async function benchStreamCpu({ bin, workdir }) {
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return [{ name: 'streamed reply: chat CPU', value: 'skipped (no `script` command for a pseudo-terminal)', unit: '' }];
  }
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-stream-'));
  const reply = longReply(REPLY_CHARS);
  const server = await startReplyServer(reply, { chunkChars: CHUNK_CHARS, perSecond: CHUNKS_PER_SECOND });
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  try {
    const printDir = join(base, 'stream-print');
    const chatDir = join(base, 'stream-chat');
    writeAgent(printDir, baseURL, 'streamer');
    writeAgent(chatDir, baseURL, 'streamer');
    const startedPrint = performance.now();
    const print = await printRun(bin, printDir, join(base, 'stream-print.times'));
    const printWall = (performance.now() - startedPrint) / 1000;
    const chat = await chatRun(bin, chatDir, join(base, 'stream-chat.times'));
    const what = `${reply.length.toLocaleString('en-US')} chars, ${CHUNK_CHARS}-char chunks at ${CHUNKS_PER_SECOND}/s, ${printWall.toFixed(0)} s`;
    return [
      { name: 'streamed reply: auggy run --print, CPU', value: print, unit: `s CPU (${what})` },
      { name: 'streamed reply: chat (100×30 pty), CPU', value: chat, unit: `s CPU (${(chat / print).toFixed(2)}x --print)` },
    ];
  } finally {
    server.close();
    if (!workdir) rmSync(base, { recursive: true, force: true });
  }
}

// Run on its own: `node bench/stream-cpu.mjs` (after `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bin = join(import.meta.dirname, '..', 'bin', 'auggy.js');
  for (const r of await benchStreamCpu({ bin })) console.log(`  ${r.name.padEnd(44)}  ${typeof r.value === 'number' ? r.value.toFixed(2) : r.value} ${r.unit}`);
}
