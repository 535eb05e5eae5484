// How much session log one long reply costs: `auggy run --print` on a scripted agent whose
// reply is 10 MB, streamed in 1 kB deltas, then the size of events.jsonl beside the reply's.
// Figures only: nothing here passes or fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPLY_BYTES = 10 * 1024 * 1024;
const WORD = `${'x'.repeat(1023)} `;

function writeAgent(dir, reply) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'agent.yaml'),
    ['id: aug1_00000000-0000-4000-8000-000000000010', 'name: big', 'identity: ./identity.md', 'engine:', '  provider: scripted', '  model: big', '  script: ./script.yaml', 'augments: []', ''].join('\n'),
  );
  writeFileSync(join(dir, 'identity.md'), 'You answer at length.\n');
  // JSON is YAML: one rule whose reply is the whole text.
  writeFileSync(join(dir, 'script.yaml'), JSON.stringify({ rules: [{ match: '.*', steps: [{ text: reply }] }] }));
}

export async function benchBigReply({ bin, workdir }) {
  const base = workdir ?? mkdtempSync(join(tmpdir(), 'auggy-bench-big-'));
  const dir = join(base, 'big-reply');
  const reply = WORD.repeat(Math.ceil(REPLY_BYTES / WORD.length)).slice(0, REPLY_BYTES);
  writeAgent(dir, reply);
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, 'run', dir, '--print', 'go'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
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
