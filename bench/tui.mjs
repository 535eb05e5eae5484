// TUI figures for `npm run bench`: how soon `auggy run` draws its prompt in a real terminal,
// and what one keystroke costs to render with 2,000 messages in the transcript.
// Figures only: nothing here passes or fails on time.
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyAgentFolder } from './demo-copy.mjs';

const PROMPT = '›';
const READY = 'Type a message';

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

function hasScript() {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * One start of `auggy run` under `script` (a real pseudo-terminal, its output piped back):
 * milliseconds until the prompt is drawn, and until the input takes keys. Ctrl+D then quits.
 */
function timeOneStart(bin, dir) {
  return new Promise((resolve, reject) => {
    const command = `stty cols 100 rows 30; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} run ${JSON.stringify(dir)}`;
    const start = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - start) / 1e6;
    const env = { ...process.env, NO_COLOR: '1' };
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    let firstFrame;
    let ready;
    const timeout = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      if (firstFrame === undefined && seen.includes(PROMPT)) firstFrame = elapsed();
      if (ready === undefined && seen.includes(READY)) {
        ready = elapsed();
        child.stdin.write('\u0004');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timeout);
      if (firstFrame === undefined || ready === undefined) reject(new Error(`auggy run never drew its prompt (exit ${code}):\n${seen.slice(-500)}`));
      else resolve({ firstFrame, ready });
    });
  });
}

async function benchStartup(bin, workdir, runs) {
  if (!hasScript()) return [{ name: 'auggy run: first frame', value: 'skipped (no `script` command for a pseudo-terminal)', unit: '' }];
  const dir = join(workdir, 'tui-start');
  copyAgentFolder(join(workdir, 'demo'), dir);
  const first = [];
  const ready = [];
  for (let i = 0; i < runs; i++) {
    const sample = await timeOneStart(bin, dir);
    first.push(sample.firstFrame);
    ready.push(sample.ready);
  }
  return [
    { name: 'auggy run: start to prompt drawn', value: stats(first).median, unit: 'ms median' },
    { name: 'auggy run: start to input ready', value: stats(ready).median, unit: 'ms median' },
  ];
}

/** A session log with `count` messages: alternating person and assistant, a few lines each. */
function writeLongSession(agentDir, id, count) {
  const dir = join(agentDir, '.auggy', 'sessions', id);
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  const lines = [{ kind: 'header', version: 1, sessionId: id, agentName: 'demo', createdAt: at }];
  for (let turn = 0; turn < count / 2; turn++) {
    const runId = `run_${turn}`;
    const messageId = `msg_${turn}`;
    const event = (e) => ({ kind: 'event', turnId: runId, event: e, at });
    lines.push({ kind: 'user', turnId: runId, text: `Question number ${turn}: how is the deploy of service ${turn % 7} going?`, at });
    lines.push(event({ type: 'RUN_STARTED', threadId: id, runId }));
    lines.push(event({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }));
    lines.push(
      event({
        type: 'TEXT_MESSAGE_CONTENT',
        messageId,
        delta: `Answer ${turn}: the build passed, the image is pushed, and the rollout of service ${turn % 7} is at ${turn % 100}%. `,
      }),
    );
    lines.push(event({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: 'Nothing else needs your attention right now.' }));
    lines.push(event({ type: 'TEXT_MESSAGE_END', messageId }));
    lines.push(event({ type: 'RUN_FINISHED', threadId: id, runId, result: { status: 'completed' } }));
  }
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  queue = [];
  write(data) {
    this.queue.push(data);
    this.emit('readable');
  }
  read() {
    return this.queue.shift() ?? null;
  }
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  pause() {}
  resume() {}
}

class FakeStdout extends EventEmitter {
  // Not a TTY only so that Ink leaves the real cursor alone; it renders the same.
  isTTY = false;
  columns = 100;
  rows = 40;
  written = 0;
  tail = '';
  write(data) {
    this.written += data.length;
    this.tail = (this.tail + data).slice(-65536);
    this.emit('written');
    return true;
  }
  /** Resolves once `test` holds for what was written. */
  seen(test) {
    return new Promise((resolve) => {
      const check = () => {
        if (!test(this.tail)) return;
        this.off('written', check);
        resolve();
      };
      this.on('written', check);
      check();
    });
  }
}

async function loadTui(root) {
  const dist = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  // Ink and React loaded the way `auggy run` loads them (production React, never in CI mode).
  await (await dist('hosts/tui/start-tui.js')).loadInteractiveInk();
  // As run-chat has it loaded before any markdown is drawn.
  await (await dist('hosts/tui/markdown/markdown-blocks.js')).loadMarkdownLexer();
  return {
    React: (await import('react')).default,
    ink: await import('ink'),
    app: await dist('hosts/tui/app.js'),
    runChat: await dist('hosts/tui/run-chat.js'),
    history: await dist('hosts/tui/history-from-session.js'),
    feed: await dist('hosts/tui/warning-feed.js'),
    open: await dist('hosts/open-conversation.js'),
  };
}

/** The chat drawn in memory over a session of `messages` messages; `items` picks what is printed at start. */
async function mountChat(tui, workdir, messages, pickItems) {
  const dir = mkdtempSync(join(tmpdir(), 'auggy-bench-tui-'));
  const agentDir = join(dir, 'demo');
  copyAgentFolder(join(workdir, 'demo'), agentDir);
  writeLongSession(agentDir, 'bench-long', messages);
  const warnings = tui.feed.createWarningFeed();
  const target = await tui.open.loadRunnableAgent(agentDir, {}, () => {});
  const conversation = await tui.open.openConversation(target, { sessionId: 'bench-long' }, warnings.warn);
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  let onFrame;
  const nextFrame = () => new Promise((resolve) => (onFrame = resolve));
  const drawn = nextFrame();
  const startedAt = performance.now();
  const cpuAt = process.cpuUsage();
  const opening = pickItems(conversation);
  const element = tui.React.createElement(tui.app.App, { ...opening, conversation, warnings, history: [], saveHistory: () => {}, resumeHint: (id) => id });
  const instance = tui.ink.render(element, {
    stdin,
    stdout,
    stderr: stdout,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 1000,
    onRender: () => onFrame?.(),
  });
  // Drawn once the last opening item has been printed and the input drawn under it.
  const last = String(opening.items.at(-1).text ?? opening.items.at(-1).title).slice(0, 30);
  await Promise.all([drawn, stdout.seen((written) => written.includes(last) && /starting…|Type a message/.test(written.slice(written.lastIndexOf(last))))]);
  const firstDraw = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuAt);
  const firstDrawCpu = (cpu.user + cpu.system) / 1000;
  const close = () => {
    instance.unmount();
    rmSync(dir, { recursive: true, force: true });
  };
  return { stdin, nextFrame, firstDraw, firstDrawCpu, items: opening.items.length, close };
}

/** Types `keys` characters, timing each from the keypress to the frame Ink finished rendering. */
async function typeKeys(chat, keys) {
  // Let the first frames (keys being read, the placeholder) settle before timing keys.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const samples = [];
  for (let i = 0; i < keys; i++) {
    const frame = chat.nextFrame();
    const start = performance.now();
    chat.stdin.write(String.fromCharCode(97 + (i % 26)));
    await frame;
    samples.push(performance.now() - start);
    // Leave the render throttle idle, so every key is drawn on its own.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return stats(samples);
}

async function benchTranscript(root, workdir, keys) {
  const tui = await loadTui(root);
  // Every message in the transcript, as after a long chat: the state keystrokes render against.
  const everything = (conversation) => {
    const past = tui.history.historyFromSession(conversation.session.entries().entries, 2);
    return { ...past, items: [{ kind: 'header', id: 'i1', title: 'Demo', model: 'scripted:demo', sessionId: 'bench-long', resumed: true }, ...past.items] };
  };
  const warmup = await mountChat(tui, workdir, 0, everything);
  await typeKeys(warmup, keys);
  warmup.close();
  const empty = await mountChat(tui, workdir, 0, everything);
  const emptyKeys = await typeKeys(empty, keys);
  empty.close();
  const long = await mountChat(tui, workdir, 2000, everything);
  const longKeys = await typeKeys(long, keys);
  long.close();
  // `auggy run --session` on the same session prints only its latest items.
  const resumed = await mountChat(tui, workdir, 2000, (conversation) => tui.runChat.openingItems(conversation));
  resumed.close();
  return {
    emptyKeys,
    longKeys,
    longItems: long.items - 1,
    longDraw: long.firstDraw,
    longDrawCpu: long.firstDrawCpu,
    resumedDraw: resumed.firstDraw,
    resumedItems: resumed.items,
  };
}

export async function benchTui({ root, bin, workdir }) {
  const runs = Math.max(3, Math.min(Number(process.env.BENCH_RUNS ?? 15), 15));
  const rows = await benchStartup(bin, workdir, runs);
  const keys = 200;
  const t = await benchTranscript(root, workdir, keys);
  rows.push(
    { name: 'auggy run: keystroke render, empty transcript', value: t.emptyKeys.median, unit: `ms median (p95 ${t.emptyKeys.p95.toFixed(2)}, ${keys} keys)` },
    {
      name: `auggy run: keystroke render, ${t.longItems.toLocaleString('en-US')} messages`,
      value: t.longKeys.median,
      unit: `ms median (p95 ${t.longKeys.p95.toFixed(2)}, ${keys} keys)`,
    },
    { name: `auggy run: printing ${t.longItems.toLocaleString('en-US')} messages at once`, value: t.longDraw, unit: `ms (${t.longDrawCpu.toFixed(0)} ms CPU)` },
    { name: `auggy run --session of 2,000 messages (last ${t.resumedItems - 2} shown)`, value: t.resumedDraw, unit: 'ms' },
  );
  return rows;
}

// Run on its own: `node bench/tui.mjs` (after `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(import.meta.dirname, '..');
  const workdir = mkdtempSync(join(tmpdir(), 'auggy-bench-'));
  copyAgentFolder(join(root, 'examples', 'demo'), join(workdir, 'demo'));
  try {
    for (const row of await benchTui({ root, bin: join(root, 'bin', 'auggy.js'), workdir })) {
      console.log(`  ${row.name.padEnd(50)}  ${typeof row.value === 'number' ? row.value.toFixed(2) : row.value} ${row.unit}`);
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}
