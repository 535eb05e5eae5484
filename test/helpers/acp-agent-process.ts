import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientCapabilities,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { AUGGY_BIN } from './agent-fixture.js';

const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

/** How the test's person answers the agent's requests; each test sets what it needs. */
export interface TestPerson {
  elicit(request: CreateElicitationRequest): Promise<CreateElicitationResponse> | CreateElicitationResponse;
  permit(request: RequestPermissionRequest): Promise<RequestPermissionResponse> | RequestPermissionResponse;
}

export interface AcpProcessOptions {
  args?: string[];
  env?: Record<string, string>;
  /** What the client says it can do; elicitation forms by default. */
  capabilities?: ClientCapabilities;
}

/**
 * `auggy acp <dir>` spawned as an editor spawns it, driven by the ACP SDK's own client side.
 * Every byte of its stdout is kept, to prove it carries nothing but JSON-RPC messages.
 */
export class AcpAgentProcess {
  readonly notifications: SessionNotification[] = [];
  readonly elicitations: CreateElicitationRequest[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  person: TestPerson = {
    elicit: () => ({ action: 'cancel' }),
    permit: () => ({ outcome: { outcome: 'cancelled' } }),
  };
  private stdoutText = '';
  private stderrText = '';
  readonly agent: ClientContext;
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    agent: (self: AcpAgentProcess) => ClientContext,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    this.agent = agent(this);
  }

  static start(dir: string, options: AcpProcessOptions = {}): AcpAgentProcess {
    const child = spawn(process.execPath, [AUGGY_BIN, 'acp', dir, ...(options.args ?? [])], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...CLEAN_ENV, ...options.env },
    });
    return new AcpAgentProcess(child, (self) => {
      const tap = new PassThrough();
      child.stdout?.on('data', (chunk: Buffer) => (self.stdoutText += chunk.toString('utf8')));
      child.stdout?.pipe(tap);
      const app = client({ name: 'auggy-test' })
        .onNotification('session/update', ({ params }) => {
          self.notifications.push(params);
        })
        .onRequest('elicitation/create', async ({ params }) => {
          self.elicitations.push(params);
          return self.person.elicit(params);
        })
        .onRequest('session/request_permission', async ({ params }) => {
          self.permissions.push(params);
          return self.person.permit(params);
        });
      const stream = ndJsonStream(Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>, Readable.toWeb(tap) as ReadableStream<Uint8Array>);
      return app.connect(stream).agent;
    });
  }

  /** initialize, as an editor with these capabilities (elicitation forms unless told otherwise). */
  initialize(capabilities: ClientCapabilities = { elicitation: { form: {} } }) {
    return this.agent.request('initialize', { protocolVersion: 1, clientCapabilities: capabilities, clientInfo: { name: 'auggy-test', version: '1' } });
  }

  async newSession(cwd: string): Promise<string> {
    const { sessionId } = await this.agent.request('session/new', { cwd, mcpServers: [] });
    return sessionId;
  }

  prompt(sessionId: string, text: string) {
    return this.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  /** The updates of one session, from `from` on (an index into all notifications). */
  updates(sessionId: string, from = 0): SessionUpdate[] {
    return this.notifications.slice(from).flatMap((n) => (n.sessionId === sessionId ? [n.update] : []));
  }

  /** The text the agent streamed to the session from `from` on. */
  replyText(sessionId: string, from = 0): string {
    return this.updates(sessionId, from)
      .flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : []))
      .join('');
  }

  thoughts(sessionId: string, from = 0): string {
    return this.updates(sessionId, from)
      .flatMap((u) => (u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text' ? [u.content.text] : []))
      .join('');
  }

  /** Resolves once an update of the session matches. */
  async waitForUpdate(sessionId: string, match: (update: SessionUpdate) => boolean, from = 0): Promise<SessionUpdate> {
    for (;;) {
      const found = this.updates(sessionId, from).find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  get stdout(): string {
    return this.stdoutText;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Closes stdin as an editor does when it is done; the agent exits by itself. */
  async stop(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }
}

/** Every line the agent wrote to stdout, each checked to be one JSON-RPC 2.0 message. */
export function nonJsonRpcLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => {
      try {
        const message = JSON.parse(line) as { jsonrpc?: unknown; method?: unknown; id?: unknown; result?: unknown; error?: unknown };
        return !(message.jsonrpc === '2.0' && (typeof message.method === 'string' || 'result' in message || 'error' in message));
      } catch {
        return true;
      }
    });
}
