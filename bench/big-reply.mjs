// How much session log one long reply costs: `auggy run --print` against a loopback Chat
// Completions server whose reply is 10 MB, streamed in 1 kB deltas as real servers stream them,
// then the size of events.jsonl beside the reply's. (A scripted agent cannot carry the reply:
// its script.yaml is held to the 1 MiB limit of every file an agent names.)
// Figures only: nothing here passes or fails.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPLY_BYTES = 10 * 1024 * 1024;
const WORD = `${'x'.repeat(1023)} `;

function writeAgent(dir, baseURL) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'agent.yaml'),
    [
      'id: aug1_00000000-0000-4000-8000-000000000010',
      'name: big',
      'identity: ./identity.md',
      'engine:',
      '  provider: openai-compatible',
      '  model: big',
      `  baseURL: ${baseURL}`,
      'augments: []',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'identity.md'), 'You answer at length.\n');
}

/** Streams `reply` as Chat Completions chunks of one word each, then the finish and [DONE]. */
function startReplyServer(reply) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id: 'big', object: 'chat.completion.chunk', created: 0, model: 'big', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }));
      for (let at = 0; at < reply.length; at += WORD.length) res.write(chunk({ content: reply.slice(at, at + WORD.length) }));
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

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
  const server = await startReplyServer(reply);
  writeAgent(dir, `http://127.0.0.1:${server.address().port}/v1`);
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
