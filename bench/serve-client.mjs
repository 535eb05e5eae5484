// What the serve benches share: starting `auggy serve` on a free port, and one AG-UI run against it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

// node:http with kept-alive connections rather than fetch: the client shares the machine's two
// cores with the server, and fetch (undici's web streams) spent ~2.5 ms of CPU per run, a quarter
// of the server's own; this spends well under one (the bench prints it beside the server's).
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

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
export function oneRun(url, text = 'hello') {
  const started = performance.now();
  const body = JSON.stringify({
    threadId: `bench-${randomUUID()}`,
    runId: `run-${randomUUID()}`,
    messages: [{ id: randomUUID(), role: 'user', content: text }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  });
  return new Promise((resolve) => {
    const done = (status, received) => {
      const ms = performance.now() - started;
      // The last SSE frame says how the run ended.
      const end = received.trimEnd();
      const lastFrame = end.slice(end.lastIndexOf('\n\n') + 1).trim();
      let last;
      try {
        last = lastFrame.startsWith('data: ') ? JSON.parse(lastFrame.slice(6)) : undefined;
      } catch {
        last = undefined;
      }
      const completed = status === 200 && last?.type === 'RUN_FINISHED' && last.result?.status === 'completed';
      if (!completed && process.env.BENCH_DEBUG) console.error(status, received.slice(-300));
      resolve({ ms, completed });
    };
    const req = request(`${url}/agent/run`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (received += chunk));
      response.on('end', () => done(response.statusCode, received));
      response.on('error', () => done(0, received));
    });
    req.on('error', () => done(0, ''));
    req.end(body);
  });
}
