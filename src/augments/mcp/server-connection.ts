import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectTimeoutMsOf, targetOf, timeoutMsOf, type ServerConfig } from './config-schema.js';
import { interpolate, type Lookup } from './interpolate.js';
import type { ToolResultParts } from './result-text.js';
import { loadSdk, type Sdk } from './sdk.js';
import type { CallClock } from './call-clock.js';
import { deliverResponsesInOrder } from './ordered-delivery.js';
import { callAsTask } from './task-call.js';

export type RemoteTool = Tool;

/** Where a server stands: what the status line, `/mcp` and `auggy mcp list` show. */
export type ServerState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'connected'; tools: RemoteTool[] }
  /**
   * It never came up; retried at the next turn, unless it outlasted its connect bound
   * (`gaveUp`): then it is not waited for again until auggy restarts.
   */
  | { kind: 'failed'; error: string; gaveUp?: boolean }
  /** It was up and went away; its tools answer with an error until the next turn restarts it. */
  | { kind: 'exited'; error: string; tools: RemoteTool[] }
  | { kind: 'closed' };

/** What the server may ask of the client mid-call; the pool routes it to whoever waits on a call. */
export interface ServerRequests {
  elicit(server: ServerConfig, params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult>;
  sample(server: ServerConfig, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
  /** The state or the tool list changed (the status line redraws). */
  changed(server: ServerConfig, note?: string): void;
}

export interface CallOptions {
  signal: AbortSignal;
  /** The call's timeout, held while the person answers the server. */
  clock: CallClock;
  onProgress(progress: { progress: number; total?: number; message?: string }): void;
}

/** A call that failed without the server answering: the message says why, for the model. */
export class CallFailure extends Error {}

/** Enough pages for any honest server; a broken one must not make listing loop forever. */
const MAX_TOOL_PAGES = 20;
const STDERR_LINES = 8;
/** The SDK's own timer never fires (setTimeout's maximum): each call's CallClock keeps the time. */
const NO_SDK_TIMEOUT = 2_147_483_647;

function describe(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, a bad certificate) is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return cause ? `${message} (${code ?? cause.message})` : message;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function clientInfo() {
  return { name: 'auggy', version: '0.1.0' };
}

/**
 * One MCP server, as one client connection for the whole process: started on demand, its tool
 * list kept current (tools/list_changed), its death noticed, restarted when asked.
 */
export class ServerConnection {
  state: ServerState = { kind: 'idle' };
  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private closing = false;
  private stderrTail: string[] = [];
  private sdk: Sdk | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly lookup: Lookup,
    private readonly agentDir: string,
    private readonly requests: ServerRequests,
  ) {}

  get timeoutMs(): number {
    return timeoutMsOf(this.config.policy);
  }

  /** Starting, MCP's handshake and the tool list: connectTimeoutSeconds in .mcp.json. */
  private get startTimeoutMs(): number {
    return connectTimeoutMsOf(this.config.policy);
  }

  /** The process id of a stdio server while it runs: the pool kills it if auggy exits abruptly. */
  get pid(): number | undefined {
    const transport = this.transport as { pid?: number | null } | undefined;
    return transport?.pid ?? undefined;
  }

  /** Read through a method so a check made before an await does not narrow what is read after it. */
  currentState(): ServerState {
    return this.state;
  }

  tools(): RemoteTool[] {
    return this.state.kind === 'connected' || this.state.kind === 'exited' ? this.state.tools : [];
  }

  /**
   * Starts the server unless it is running, or it once outlasted its connect bound: a command that
   * never speaks MCP would otherwise hold every turn that long. A failure lands in `state`, never
   * as a throw.
   */
  ensure(): Promise<void> {
    const { state } = this;
    if (state.kind === 'connected' || state.kind === 'closed' || (state.kind === 'failed' && state.gaveUp)) return Promise.resolve();
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Waits for a tool list refresh the server announced, so the next round offers its tools. */
  async settled(): Promise<void> {
    await this.refreshing;
  }

  private set(state: ServerState, note?: string): void {
    this.state = state;
    this.requests.changed(this.config, note);
  }

  private filled(text: string): string {
    return interpolate(text, this.lookup).value;
  }

  private makeTransport(sdk: Sdk): Transport {
    const { config } = this;
    if (config.transport === 'stdio') {
      const { command, args = [], env = {} } = config.stdio;
      const dir = this.serverDir();
      const transport = new sdk.StdioClientTransport({
        command: this.filled(command),
        args: args.map((arg) => this.filled(arg)),
        // The SDK adds only PATH, HOME and a few like them: the agent's keys never reach a server unasked.
        env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, this.filled(v)])),
        cwd: dir,
        // Piped, never inherited: a server's log lines must not tear the chat's screen.
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail.push(
          ...chunk
            .toString('utf8')
            .split('\n')
            .filter((line) => line.trim() !== ''),
        );
        this.stderrTail = this.stderrTail.slice(-STDERR_LINES);
      });
      return transport;
    }
    const url = new URL(this.filled(config.remote.url));
    const headers = Object.fromEntries(Object.entries(config.remote.headers ?? {}).map(([k, v]) => [k, this.filled(v)]));
    const requestInit = { headers };
    return config.transport === 'sse' ? new sdk.SSEClientTransport(url, { requestInit }) : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  }

  /** The folder a stdio server runs in: its `cwd`, else the agent folder. */
  private serverDir(): string {
    const cwd = this.config.transport === 'stdio' ? this.config.stdio.cwd : undefined;
    if (cwd === undefined) return this.agentDir;
    const filled = this.filled(cwd);
    return isAbsolute(filled) ? filled : resolve(this.agentDir, filled);
  }

  /**
   * The MCP roots: the folders `.mcp.json` names for the server (auggy.servers.<name>.roots), else
   * the folders its own arguments name, else the agent folder. A server such as server-filesystem
   * replaces the folders it was started with by the roots, so a default of the whole agent folder
   * would widen `server-filesystem ./workspace` to the agent's `.env`.
   */
  roots(): { uri: string; name: string }[] {
    const named = this.config.policy.roots;
    let dirs: string[];
    if (named) dirs = named.map((root) => resolve(this.agentDir, this.filled(root)));
    else {
      const args = this.config.transport === 'stdio' ? (this.config.stdio.args ?? []) : [];
      const argDirs = args.map((arg) => resolve(this.serverDir(), this.filled(arg))).filter(isFolder);
      dirs = argDirs.length > 0 ? argDirs : [this.agentDir];
    }
    return dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) }));
  }

  private lastStderr(): string {
    const last = this.stderrTail.at(-1);
    return last ? ` (it said: ${last.slice(0, 200)})` : '';
  }

  private async start(): Promise<void> {
    const previous = this.client;
    this.client = undefined;
    await previous?.close().catch(() => undefined);
    this.stderrTail = [];
    this.set({ kind: 'connecting' });
    let client: Client | undefined;
    try {
      this.sdk ??= await loadSdk();
      const sdk = this.sdk;
      client = new sdk.Client(clientInfo(), { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } });
      const started = client;
      client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: this.roots() }));
      client.setRequestHandler(sdk.ElicitRequestSchema, (request, extra) => this.requests.elicit(this.config, request.params, extra.signal));
      client.setRequestHandler(sdk.CreateMessageRequestSchema, (request, extra) => this.requests.sample(this.config, request.params, extra.signal));
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
        this.refreshing = this.refresh(started);
      });
      const transport = this.makeTransport(sdk);
      this.transport = transport;
      client.onclose = () => this.lost(started);
      // Errors a transport reports after start (a stray line on stdout) do not end the connection.
      client.onerror = () => undefined;
      await client.connect(transport, { timeout: this.startTimeoutMs });
      deliverResponsesInOrder(transport);
      this.client = client;
      const tools = await this.listAll(client);
      this.set({ kind: 'connected', tools });
    } catch (error) {
      this.client = undefined;
      // Closing the client ends the process too, so a server that never answered is not left running.
      await client?.close().catch(() => undefined);
      const timedOut = this.sdk !== undefined && (error as { code?: unknown }).code === this.sdk.ErrorCode.RequestTimeout;
      if (timedOut) {
        const seconds = this.startTimeoutMs / 1000;
        const message = `it did not answer MCP's handshake and tool list within ${seconds} s${this.lastStderr()}; check that ${targetOf(this.config)} is an MCP server, or give it longer with auggy.servers.${this.config.name}.connectTimeoutSeconds in .mcp.json`;
        this.set(
          { kind: 'failed', error: message, gaveUp: true },
          `MCP server ${this.config.name} was given up on: ${message}; it is not started again until auggy restarts`,
        );
        return;
      }
      const message = `${describe(error)}${this.lastStderr()}`;
      this.set(
        { kind: 'failed', error: message },
        `MCP server ${this.config.name} did not start: ${message}; its tools are unavailable until it starts (tried again at the next turn)`,
      );
    }
  }

  private lost(client: Client): void {
    if (this.closing || this.client !== client) return;
    this.client = undefined;
    const why = `the server exited${this.lastStderr()}`;
    this.set(
      { kind: 'exited', error: why, tools: this.tools() },
      `MCP server ${this.config.name} stopped: ${why}; its tools answer with an error until it is restarted at the next turn`,
    );
  }

  private async listAll(client: Client): Promise<RemoteTool[]> {
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.startTimeoutMs });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  private async refresh(client: Client): Promise<void> {
    try {
      const tools = await this.listAll(client);
      if (this.client === client && this.state.kind === 'connected') this.set({ kind: 'connected', tools });
    } catch {
      // The old list stays; a server that cannot list its tools is noticed on the next call.
    }
  }

  /** Calls a tool; throws CallFailure with a sentence for the model when no answer came. */
  async call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResultParts> {
    const client = this.client;
    if (!client || this.state.kind !== 'connected') {
      const why = this.state.kind === 'failed' || this.state.kind === 'exited' ? this.state.error : 'it is not running';
      throw new CallFailure(
        `The MCP server ${this.config.name} is not available (${why}); it is restarted at the next turn. Tell the person if this blocks the task.`,
      );
    }
    // Either stops the call with notifications/cancelled: the turn's end, or the call's clock.
    const signal = AbortSignal.any([options.signal, options.clock.signal]);
    try {
      if (this.tools().find((tool) => tool.name === name)?.execution?.taskSupport === 'required') {
        return await callAsTask(client, name, args, options, signal);
      }
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: NO_SDK_TIMEOUT,
        onprogress: (progress) => options.onProgress(progress),
      })) as ToolResultParts;
    } catch (error) {
      if (options.signal.aborted) throw new CallFailure(`The call to ${name} was canceled with the turn; the server was told to stop.`);
      const code = (error as { code?: unknown }).code;
      if (options.clock.expired || (this.sdk && code === this.sdk.ErrorCode.RequestTimeout)) {
        throw new CallFailure(
          `${name} did not answer within ${this.timeoutMs / 1000} s (auggy.servers.${this.config.name}.timeoutSeconds in .mcp.json); the server was told to stop.`,
        );
      }
      const now = this.currentState();
      if (now.kind !== 'connected')
        throw new CallFailure(
          `The MCP server ${this.config.name} stopped during the call to ${name} (${now.kind === 'exited' ? now.error : 'connection lost'}).`,
        );
      throw new CallFailure(`${name} failed: ${describe(error)}`);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    this.state = { kind: 'closed' };
    // The SDK ends a stdio server with SIGTERM, then SIGKILL if it lingers.
    await client?.close().catch(() => undefined);
  }
}
