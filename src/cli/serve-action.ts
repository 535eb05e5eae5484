import { EXIT, UsageError } from './exit-codes.js';
import type { ServeOptionValues } from './serve.js';
import { loadRunnableAgent, openAgentStore, type AgentTarget } from '../hosts/open-conversation.js';
import type { SessionStore } from '../session/store.js';
import { storeChoiceFrom } from './store-option.js';
import { isLoopbackHost } from '../hosts/agui/access.js';
import { createAguiServer } from '../hosts/agui/agui-server.js';
import { hostScopeFor } from './allow-tool.js';

function log(line: string): void {
  process.stderr.write(`auggy serve: ${line}\n`);
}

function integerOption(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} ${value} is not a whole number from ${min} to ${max}`);
  }
  return n;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

interface ServeSettings {
  host: string;
  port: number;
  token?: string;
  maxMessageChars: number;
  graceMs: number;
}

/** Checks every option before anything loads, so a mistake costs no start-up. */
function settingsFrom(options: ServeOptionValues): ServeSettings {
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
    graceMs: integerOption('--grace-ms', options.graceMs, 0),
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
  const target = await loadRunnableAgent(dir, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout }, (message) => log(`warning: ${message}`));
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

async function serveUntilStopped(target: AgentTarget, store: SessionStore, settings: ServeSettings, options: ServeOptionValues): Promise<number> {
  const server = createAguiServer({
    target,
    store,
    token: settings.token,
    maxMessageChars: settings.maxMessageChars,
    corsOrigin: options.corsOrigin,
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
  process.stdout.write(`auggy serve: listening on http://${urlHost(address.address)}:${address.port}\n`);
  if (store.shared) log(`sessions in ${store.location} (shared with any other replica on it)`);
  const signal = await stopped;
  log(`${signal} received`);
  await server.shutdown(settings.graceMs);
  return EXIT.ok;
}
