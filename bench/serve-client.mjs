// What the serve benches share: starting `auggy serve` on a free port, and one AG-UI run against it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

/**
 * `auggy serve DIR --port 0 ...extraArgs`, with no model or token settings from the machine.
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server under load.
 */
export function startServe(bin, agentDir, extraArgs = []) {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', agentDir, '--port', '0', ...extraArgs], {
    env: { ...process.env, AUGGY_TOKEN: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_STORE: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  const url = new Promise((resolveUrl, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolveUrl(match[1]);
    });
    exited.then((code) => reject(new Error(`auggy serve ${extraArgs.join(' ')} exited ${code} before listening: ${stderr.trim()}`)));
  });
  return { child, url, exited };
}

/** One run on a new thread; `completed` when the stream ends in RUN_FINISHED with status completed. */
export async function oneRun(url, text = 'hello') {
  const started = performance.now();
  const response = await fetch(`${url}/agent/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      threadId: `bench-${randomUUID()}`,
      runId: `run-${randomUUID()}`,
      messages: [{ id: randomUUID(), role: 'user', content: text }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  const frames = body.split('\n\n').filter((frame) => frame.startsWith('data: '));
  const last = frames.length > 0 ? JSON.parse(frames.at(-1).slice(6)) : undefined;
  const completed = response.status === 200 && last?.type === 'RUN_FINISHED' && last.result?.status === 'completed';
  if (!completed && process.env.BENCH_DEBUG) console.error(response.status, body.slice(-300));
  return { ms, completed };
}
