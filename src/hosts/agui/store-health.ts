import type { ServerResponse } from 'node:http';
import type { SessionStore } from '../../session/store.js';
import { sendJson } from '../http/http-io.js';
import { STORE_DOWN, STORE_RETRY_SECONDS } from '../http/store-down.js';

/** The longest /health waits for the store: a probe that hangs must not hang the probe's caller. */
const CHECK_WAIT_MS = 2000;

/**
 * GET /health: healthy only when the server could take a run now, so a load balancer sends none
 * to a replica whose store is gone. The reason goes to the operator's log.
 */
export async function sendHealth(res: ServerResponse, headers: Record<string, string>, store: SessionStore, log: (line: string) => void): Promise<void> {
  const problem = await storeProblem(store);
  if (problem === undefined) {
    sendJson(res, 200, { status: 'healthy' }, headers);
    return;
  }
  log(`health: ${problem}`);
  sendJson(res, 503, { status: 'unhealthy', store: 'unreachable', message: STORE_DOWN }, { ...headers, 'retry-after': STORE_RETRY_SECONDS });
}

async function storeProblem(store: SessionStore): Promise<string | undefined> {
  if (!store.check) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the session store ${store.location} did not answer within ${CHECK_WAIT_MS} ms`), CHECK_WAIT_MS);
  });
  try {
    return await Promise.race([store.check().then(() => undefined), late]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
