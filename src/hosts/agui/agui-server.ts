import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAdminReport } from '../../augments/admin-report.js';
import { createModelCache } from '../../model/model-cache.js';
import type { SessionStore } from '../../session/store.js';
import { openThreadConversation, type AgentTarget } from '../open-conversation.js';
import { requireBearer } from '../http/access.js';
import { handleBoard } from './handle-board.js';
import { handleRun } from './handle-run.js';
import { handleThread, handleThreadList } from './handle-threads.js';
import { handleCommand } from './handle-command.js';
import { handleAttachment } from './handle-attachment.js';
import { consoleAssetsDir, serveConsole } from '../console/console-page.js';
import { HttpError, sendError, sendJson } from '../http/http-io.js';
import { checkHost, checkOrigin, normalOrigins, requireJsonBody, type RequestGuards } from '../http/request-guards.js';
import type { ServedRoutes } from '../http/served-routes.js';
import { ThreadRegistry } from './thread-registry.js';
import { sendHealth } from './store-health.js';
import { STORE_DOWN, STORE_RETRY_SECONDS } from '../http/store-down.js';
import { StoreUnreachableError } from '../../session/session.js';

export interface AguiServerOptions {
  target: AgentTarget;
  /** Where threads live: the agent folder, or a database other replicas share. */
  store: SessionStore;
  /** Bearer token for /agent/run and /admin; undefined leaves them open (loopback only). */
  token?: string;
  maxMessageChars: number;
  /** The largest /agent/run body taken, in bytes; 4 MiB by default. */
  maxBodyBytes?: number;
  /** Browser origins allowed to call (`*` for any); none by default, so web pages elsewhere cannot. */
  corsOrigins?: readonly string[];
  /** Names besides the bound address and localhost that the Host header may carry. */
  allowedHosts?: readonly string[];
  /** Operator-facing lines (one per run, warnings), without a trailing newline. */
  log(line: string): void;
  /** How long an AG-UI interrupt waits for its answer before it expires; undefined: no expiry. */
  interruptWaitMs?: number;
  /**
   * Routes another protocol serves beside AG-UI on this server (A2A), behind the same Host and
   * Origin checks, made with the server's threads so their runs are the threads' runs too.
   */
  served?: (threads: ThreadRegistry) => readonly ServedRoutes[];
}

export interface AguiServer {
  /** Resolves to the bound address once listening; rejects on EADDRINUSE and the like. */
  listen(host: string, port: number): Promise<AddressInfo>;
  /**
   * Stops taking new runs (they get 503 with Retry-After), lets in-flight runs finish for
   * `graceMs`, cancels the rest (their clients still get RUN_FINISHED canceled), then closes.
   */
  shutdown(graceMs: number): Promise<void>;
}

const ROUTES: Record<string, string> = {
  '/agent/run': 'POST',
  '/agent/board': 'POST',
  '/agent/threads': 'GET',
  '/agent/thread': 'GET',
  '/agent/attachment': 'GET',
  '/agent/command': 'POST',
  '/health': 'GET',
  '/admin': 'GET',
  '/': 'GET',
};

function routeList(routes: Record<string, string>): string {
  return Object.entries(routes)
    .map(([path, method]) => `${method} ${path}`)
    .join(', ');
}

/** The headers that let a listed origin's page read the response. */
function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

export function createAguiServer(options: AguiServerOptions): AguiServer {
  const { target, store } = options;
  // One model cache for every thread: each model is built (and a scripted model's file read) once.
  const models = createModelCache();
  const threads = new ThreadRegistry(
    (threadId) =>
      openThreadConversation(target, store, threadId, {
        createIfMissing: true,
        models,
        warn: (message) => options.log(`warning: thread ${threadId}: ${message}`),
      }),
    store.shared ? 0 : undefined,
  );
  const served = options.served?.(threads) ?? [];
  const routes: Record<string, string> = Object.assign({}, ROUTES, ...served.map((more) => more.routes));
  const beside = { target, store, threads, log: options.log };
  const guards: RequestGuards = {
    bound: { address: '127.0.0.1', host: '127.0.0.1' },
    allowedHosts: options.allowedHosts ?? [],
    corsOrigins: normalOrigins(options.corsOrigins ?? []),
  };
  const consoleDir = consoleAssetsDir();
  /** Set once SIGTERM arrived: when the grace period ends, so refusals can say when to come back. */
  let closingUntil: number | undefined;

  function closingRefusal(headers: Record<string, string>): HttpError | undefined {
    if (closingUntil === undefined) return undefined;
    const seconds = Math.max(1, Math.ceil((closingUntil - Date.now()) / 1000));
    return new HttpError(503, 'the server is shutting down; try again shortly', { ...headers, 'retry-after': String(seconds), connection: 'close' });
  }

  async function route(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://auggy.invalid').pathname;
    const method = req.method ?? 'GET';
    const closing = closingRefusal(headers);
    if (closing) throw closing;
    if (method === 'OPTIONS' && routes[path] !== undefined) {
      // A preflight: the origin already passed, so say what the route takes.
      res.writeHead(204, {
        ...headers,
        allow: `${routes[path]}, OPTIONS`,
        'access-control-allow-methods': `${routes[path]}, OPTIONS`,
        'access-control-allow-headers': 'authorization, content-type, accept, a2a-version, a2a-extensions',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const page = await serveConsole(req, res, path, consoleDir);
    if (page === true) return;
    if (page !== false) throw new HttpError(page.status, page.message, { ...headers, ...page.headers });
    const expected = routes[path];
    if (expected === undefined) throw new HttpError(404, `no route ${method} ${path}; the routes are ${routeList(routes)}`);
    if (method !== expected) throw new HttpError(405, `${path} takes ${expected}, not ${method}`, { allow: expected });
    switch (path) {
      case '/health':
        await sendHealth(res, headers, options.store, options.log);
        return;
      case '/admin':
        requireBearer(req, options.token);
        sendJson(res, 200, buildAdminReport(target.agent), headers);
        return;
      case '/agent/run':
        requireBearer(req, options.token);
        requireJsonBody(req);
        await handleRun(req, res, {
          ...beside,
          maxMessageChars: options.maxMessageChars,
          maxBodyBytes: options.maxBodyBytes,
          headers,
          closingRefusal: () => closingRefusal(headers),
          interruptWaitMs: options.interruptWaitMs,
        });
        return;
      case '/agent/threads':
        requireBearer(req, options.token);
        await handleThreadList(res, { ...beside, headers });
        return;
      case '/agent/thread':
        requireBearer(req, options.token);
        await handleThread(req, res, { ...beside, headers });
        return;
      case '/agent/attachment':
        requireBearer(req, options.token);
        await handleAttachment(req, res, { ...beside, headers });
        return;
      case '/agent/command':
        requireBearer(req, options.token);
        requireJsonBody(req);
        await handleCommand(req, res, { ...beside, headers });
        return;
      case '/agent/board':
        requireBearer(req, options.token);
        requireJsonBody(req);
        await handleBoard(req, res, { ...beside, headers });
        return;
      default:
        await served.find((more) => more.routes[path] !== undefined)?.handle(path, req, res, headers);
    }
  }

  const server: Server = createServer((req, res) => {
    let headers: Record<string, string> = {};
    const served = (async () => {
      // Who may call comes first: a rebound DNS name or a foreign page learns nothing else.
      checkHost(req, guards);
      headers = corsHeaders(checkOrigin(req, guards));
      await route(req, res, headers);
    })();
    served.catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendError(res, new HttpError(error.status, error.message, { ...headers, ...error.headers }));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof StoreUnreachableError) {
        // Where the store is and as whom stays in the operator's log; the client learns when to retry.
        options.log(`error: ${req.method} ${req.url}: ${message}`);
        sendError(res, new HttpError(503, STORE_DOWN, { ...headers, 'retry-after': STORE_RETRY_SECONDS }));
        return;
      }
      options.log(`error: ${req.method} ${req.url}: ${message}`);
      sendError(res, new HttpError(500, `internal error: ${message}`, headers));
    });
  });

  return {
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          guards.bound = { address: address.address, host };
          resolve(address);
        });
      }),
    shutdown: async (graceMs) => {
      closingUntil = Date.now() + graceMs;
      const runs = [...threads.runs(), ...served.flatMap((more) => more.runs())];
      if (runs.length > 0) {
        // Still listening: a run sent now gets 503 with Retry-After, not a refused connection.
        options.log(`shutting down: ${runs.length} run(s) in flight, waiting up to ${graceMs} ms`);
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([Promise.all(runs.map((run) => run.settled)), grace]);
        clearTimeout(timer);
        const left = [...threads.runs(), ...served.flatMap((more) => more.runs())];
        if (left.length > 0) options.log(`canceling ${left.length} run(s) still in flight`);
        for (const run of left) run.controller.abort(new Error('the server is shutting down'));
        await Promise.all(left.map((run) => run.settled));
      } else {
        options.log('shutting down');
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
