import { isIP } from 'node:net';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { integerOption } from './integer-option.js';
import { loadRunnableAgent, openAgentStore, type AgentTarget } from '../hosts/open-conversation.js';
import type { SessionStore } from '../session/store.js';
import { storeChoiceFrom, type StoreOptionValues } from './store-option.js';
import { isLoopbackHost } from '../hosts/http/access.js';
import { createAguiServer } from '../hosts/agui/agui-server.js';
import type { ServedRoutes } from '../hosts/http/served-routes.js';
import type { ThreadRegistry } from '../hosts/agui/thread-registry.js';
import { packagePath } from './package-root.js';
import { readFileSync } from 'node:fs';
import { hostScopeFor } from './allow-tool.js';
import type { ModelOptionValues } from './model-options.js';

export interface ServeOptionValues extends ModelOptionValues, StoreOptionValues {
  host: string;
  port: string;
  token?: string;
  maxMessageChars: string;
  maxBodyMb: string;
  graceMs: string;
  corsOrigin: string[];
  allowTool: string[];
  allowedHost: string[];
  interruptWait?: string;
  /** False with --no-a2a: the server speaks AG-UI only. */
  a2a: boolean;
}

function log(line: string): void {
  process.stderr.write(`auggy serve: ${line}\n`);
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

interface ServeSettings {
  host: string;
  port: number;
  token?: string;
  maxMessageChars: number;
  maxBodyBytes: number;
  graceMs: number;
  interruptWaitMs?: number;
}

/** `https://app.example:3000`: what a browser sends as Origin; a path or a typo would never match one. */
function checkCorsOrigin(value: string): void {
  if (value === '*') return;
  let origin: string | undefined;
  try {
    const url = new URL(value);
    origin = /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin !== value.replace(/\/$/, '')) {
    throw new UsageError(`--cors-origin ${value} is not an origin; pass scheme, host and port only, such as http://localhost:3000 (or * for any)`);
  }
}

function checkAllowedHost(value: string): void {
  const ipv6 = isIP(value.replace(/^\[|\]$/g, '')) === 6;
  if (!/^[A-Za-z0-9.-]+$/.test(value) && !ipv6) {
    throw new UsageError(`--allowed-host ${value} is not a host name; pass a name such as agents.example.com, without scheme or port`);
  }
}

/** Checks every option before anything loads, so a mistake costs no start-up. */
function settingsFrom(options: ServeOptionValues): ServeSettings {
  options.corsOrigin.forEach(checkCorsOrigin);
  options.allowedHost.forEach(checkAllowedHost);
  const token = options.token ?? (process.env.AUGGY_TOKEN || undefined);
  if (token !== undefined && token.trim() === '') throw new UsageError('--token is empty; pass a secret or leave it out');
  const host = options.host.trim();
  if (host === '') throw new UsageError('--host is empty; pass an address such as 127.0.0.1');
  if (!isLoopbackHost(host) && token === undefined) {
    throw new UsageError(`--host ${host} is reachable from other machines; set a bearer token with --token or AUGGY_TOKEN, or bind 127.0.0.1`);
  }
  return {
    host,
    token,
    port: integerOption('--port', options.port, 0, 65535),
    maxMessageChars: integerOption('--max-message-chars', options.maxMessageChars, 1),
    maxBodyBytes: integerOption('--max-body-mb', options.maxBodyMb, 1) * 1024 * 1024,
    graceMs: integerOption('--grace-ms', options.graceMs, 0),
    ...(options.interruptWait !== undefined ? { interruptWaitMs: integerOption('--interrupt-wait', options.interruptWait, 1) * 1000 } : {}),
  };
}

function describeListenError(error: unknown, settings: ServeSettings): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${settings.host}:${settings.port}`;
  if (code === 'EADDRINUSE') return `${where} is already in use; pick another --port (0 picks a free one)`;
  if (code === 'EACCES') return `${where} needs privileges to bind; pick a --port above 1023`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `--host ${settings.host} is not an address of this machine`;
  return `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Resolves on the first SIGTERM or SIGINT; a second one exits at once. */
function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) process.exit(EXIT.canceled);
      received = true;
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** `auggy serve`: the agent over HTTP as AG-UI until SIGTERM or SIGINT; exits 0 after a clean stop. */
export async function serveCommand(dir: string, options: ServeOptionValues): Promise<number> {
  const settings = settingsFrom(options);
  const storeChoice = storeChoiceFrom(options);
  const target = await loadRunnableAgent(dir, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout }, (message) =>
    log(`warning: ${message}`),
  );
  // One scope for every thread: each MCP server is started once and shared.
  const host = hostScopeFor(target.agent, options.allowTool);
  target.host = host;
  try {
    // Connected and migrated before listening: a replica that cannot reach its store never takes traffic.
    const store = await openAgentStore(target, storeChoice, log);
    try {
      return await serveUntilStopped(target, store, settings, options);
    } finally {
      await store.close();
    }
  } finally {
    await host.close();
  }
}

/** A2A beside AG-UI, on the server's threads, unless --no-a2a; its SDK is loaded only when served. */
async function a2aRoutes(
  target: AgentTarget,
  store: SessionStore,
  settings: ServeSettings,
  options: ServeOptionValues,
): Promise<(threads: ThreadRegistry) => ServedRoutes[]> {
  if (options.a2a === false) return () => [];
  const { createA2aRoutes } = await import('../hosts/a2a/a2a-routes.js');
  const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return (threads) => [
    createA2aRoutes({
      target,
      store,
      threads,
      token: settings.token,
      maxMessageChars: settings.maxMessageChars,
      interruptWaitMs: settings.interruptWaitMs,
      version,
      log,
    }),
  ];
}

async function serveUntilStopped(target: AgentTarget, store: SessionStore, settings: ServeSettings, options: ServeOptionValues): Promise<number> {
  const server = createAguiServer({
    served: await a2aRoutes(target, store, settings, options),
    target,
    store,
    token: settings.token,
    maxMessageChars: settings.maxMessageChars,
    maxBodyBytes: settings.maxBodyBytes,
    interruptWaitMs: settings.interruptWaitMs,
    corsOrigins: options.corsOrigin,
    allowedHosts: options.allowedHost,
    log,
  });
  const stopped = untilStopSignal();
  let address;
  try {
    address = await server.listen(settings.host, settings.port);
  } catch (error) {
    throw new UsageError(describeListenError(error, settings));
  }
  // Scripts and tests read this line to learn the port (--port 0 picks one).
  const origin = `http://${urlHost(address.address)}:${address.port}`;
  process.stdout.write(`auggy serve: listening on ${origin}\n`);
  // Where each kind of client goes, so the person need not read the README to find the page.
  const a2a = options.a2a === false ? '' : `; other agents read ${origin}/.well-known/agent-card.json (A2A)`;
  log(`the Console is at ${origin}/; AG-UI clients POST ${origin}/agent/run${a2a}`);
  if (store.shared) log(`sessions in ${store.location} (shared with any other replica on it)`);
  const signal = await stopped;
  log(`${signal} received`);
  await server.shutdown(settings.graceMs);
  return EXIT.ok;
}
