import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { copyExample } from '../helpers/agent-fixture.js';
import { postRun, runInput } from '../helpers/agui-events.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const started: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of started.splice(0)) {
    serve.signal('SIGTERM');
    await serve.exited;
  }
});

/** The process's threads: the main one, V8's, libuv's pool and Node's own. */
function threadCount(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).length;
}

async function threadsOfServe(env: Record<string, string>): Promise<number> {
  const serve = await startServe(copyExample('demo'), [], env);
  started.push(serve);
  // libuv starts its whole pool at the first task; a run makes sure every thread there is has started.
  const response = await postRun(serve.url, runInput('threads', 'hello'));
  await response.text();
  return threadCount(serve.pid);
}

describe('auggy serve and libuv threads', () => {
  it.skipIf(!existsSync('/proc/self/task'))('serve does its file work on 12 libuv threads, unless UV_THREADPOOL_SIZE says otherwise', async () => {
    const widened = await threadsOfServe({});
    const asTold = await threadsOfServe({ UV_THREADPOOL_SIZE: '4' });
    expect(widened - asTold).toBe(12 - 4);
  });
});
