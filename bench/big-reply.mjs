// How much session log one long reply costs: `auggy run --print` against a loopback Chat
// Completions server whose reply is 10 MB, streamed in 1 kB deltas as real servers stream them,
// then the size of events.jsonl beside the reply's. (A scripted agent cannot carry the reply:
// its script.yaml is held to the 1 MiB limit of every file an agent names.)
// Figures only: nothing here passes or fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplyServer, writeAgent } from './reply-server.mjs';

const REPLY_BYTES = 10 * 1024 * 1024;
const WORD = `${'x'.repeat(1023)} `;

function run(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data) => (stderr += data));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

export async function benchBigReply({ bin, workdir }) {
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-big-'));
  const dir = join(base, 'big-reply');
  const reply = WORD.repeat(Math.ceil(REPLY_BYTES / WORD.length)).slice(0, REPLY_BYTES);
  const server = await startReplyServer(reply, { chunkChars: WORD.length });
  writeAgent(dir, `http://127.0.0.1:${server.address().port}/v1`, 'big');
  const started = performance.now();
  const result = await run(bin, ['run', dir, '--print', 'go']).finally(() => server.close());
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`the 10 MB reply run exited ${result.status}: ${result.stderr}`);
  const sessions = join(dir, '.auggy', 'sessions');
  const [session] = readdirSync(sessions);
  const logBytes = statSync(join(sessions, session, 'events.jsonl')).size;
  if (!workdir) rmSync(base, { recursive: true, force: true });
  const mb = (bytes) => bytes / (1024 * 1024);
  return [
    { name: 'auggy run --print, 10 MB reply (1 kB deltas)', value: ms, unit: 'ms' },
    { name: 'events.jsonl for a 10 MB reply', value: mb(logBytes), unit: `MiB (reply ${mb(REPLY_BYTES).toFixed(1)} MiB)` },
  ];
}

// Run on its own: node bench/big-reply.mjs (after npm run build).
if (import.meta.url === `file://${process.argv[1]}`) {
  const bin = join(import.meta.dirname, '..', 'bin', 'auggy.js');
  for (const r of await benchBigReply({ bin })) console.log(`  ${r.name.padEnd(48)}  ${r.value.toFixed(1)} ${r.unit}`);
}
