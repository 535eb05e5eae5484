import { agent, PROTOCOL_VERSION, RequestError, type AgentContext, type InitializeResponse, type McpServer, type Stream } from '@agentclientprotocol/sdk';
import { UsageError } from '../exit-codes.js';
import { openConversation } from '../open-conversation.js';
import type { SessionChoice } from '../open-conversation.js';
import { AcpSession } from './acp-session.js';
import { agentFolderAbove } from '../../agent/agent-folder-above.js';
import type { AgentFolders } from './agent-folders.js';
import { editorServersScope } from './editor-mcp-servers.js';
import { mcpServerOf } from './mcp-server-of.js';
import { PromptImageError, promptInput } from './prompt-text.js';

export interface AcpHostOptions {
  /** The agent folder `auggy acp [dir]` was given; absent, each session's cwd finds its own. */
  dir?: string;
  folders: AgentFolders;
  version: string;
  log(line: string): void;
}

function requestError(error: unknown, code = -32603): RequestError {
  if (error instanceof RequestError) return error;
  return new RequestError(code, error instanceof Error ? error.message : String(error));
}

/**
 * `auggy acp`: the agent as an Agent Client Protocol agent (protocol version 1) on one stream.
 * Sessions are ordinary auggy sessions of the agent folder; what the person is asked goes the
 * editor's own road (forms, permission requests).
 */
export function startAcpAgent(stream: Stream, options: AcpHostOptions): { closed: Promise<void>; close(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let forms = false;

  const folderOf = (cwd: string | undefined): string => {
    const dir = options.dir ?? (cwd === undefined ? undefined : agentFolderAbove(cwd));
    if (dir === undefined) {
      throw RequestError.invalidParams(
        undefined,
        `no agent.yaml in ${cwd ?? 'the session folder'} or any folder above it; start auggy acp with the agent folder`,
      );
    }
    return dir;
  };
  const loaded = async (cwd: string | undefined) => {
    const folder = await options.folders.load(folderOf(cwd));
    if (!folder.ok) throw new RequestError(-32603, folder.problem);
    return folder;
  };
  const open = async (client: AgentContext, cwd: string, choice: SessionChoice, mcpServers: readonly McpServer[] = []): Promise<AcpSession> => {
    const already = choice.sessionId === undefined ? undefined : sessions.get(choice.sessionId);
    if (already) return already;
    const { target, store } = await loaded(cwd);
    const withMcp = target.agent.augments.some((augment) => augment.type === 'mcp');
    if (mcpServers.length > 0 && !withMcp) options.log("the editor's MCP servers are not started: this agent does not list the mcp augment in agent.yaml");
    // The editor's servers are this session's own: a scope of its own starts and closes them.
    const ownScope = withMcp ? editorServersScope(mcpServers, target.host, options.log) : undefined;
    let conversation;
    try {
      // The editor offers the agent's own commands only, not the chat's /compact and /clear.
      conversation = await openConversation(
        ownScope ? { ...target, host: ownScope } : target,
        choice,
        (message) => options.log(`warning: ${message}`),
        store,
        [],
      );
    } catch (error) {
      await ownScope?.close();
      throw error instanceof UsageError && choice.sessionId !== undefined
        ? new RequestError(-32002, error.message, { sessionId: choice.sessionId })
        : requestError(error);
    }
    const session = new AcpSession({ conversation, client, forms, mcpServerOf, ...(ownScope ? { ownScope } : {}) });
    sessions.set(session.id, session);
    return session;
  };
  const sessionNamed = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };
  // Commands are announced once the client knows the session (after the response that names it).
  const announceSoon = (session: AcpSession) => setImmediate(() => session.announceCommands());

  const app = agent({ name: 'auggy' })
    .onRequest('initialize', async ({ params }): Promise<InitializeResponse> => {
      forms = params.clientCapabilities?.elicitation?.form != null;
      const dir = options.dir ?? agentFolderAbove(process.cwd());
      if (dir !== undefined) {
        const folder = await options.folders.load(dir);
        if (!folder.ok) {
          // A missing key is the one thing an editor can fix by itself: its own error says so.
          throw folder.missingKey
            ? RequestError.authRequired({ auggy: { message: folder.problem } }, folder.problem)
            : new RequestError(-32603, folder.problem);
        }
      }
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { embeddedContext: true, image: true, audio: false },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: [],
        agentInfo: { name: 'auggy', title: 'auggy', version: options.version },
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, params.cwd, {}, params.mcpServers);
      announceSoon(session);
      return { sessionId: session.id };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const session = await open(client, params.cwd, { sessionId: params.sessionId }, params.mcpServers);
      await session.replay();
      announceSoon(session);
      return {};
    })
    .onRequest('session/resume', async ({ params, client }) => {
      const session = await open(client, params.cwd, { sessionId: params.sessionId }, params.mcpServers ?? []);
      announceSoon(session);
      return {};
    })
    .onRequest('session/list', async ({ params }) => {
      const { target, store } = await loaded(params.cwd ?? undefined);
      const summaries = await store.summaries();
      return {
        sessions: summaries.map((summary) => ({ sessionId: summary.id, cwd: target.agent.dir, title: summary.firstMessage, updatedAt: summary.updatedAt })),
      };
    })
    .onRequest('session/close', async ({ params }) => {
      const session = sessionNamed(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessionNamed(params.sessionId);
      try {
        return await session.prompt(promptInput(params.prompt));
      } catch (error) {
        // An image that is not one is the client's to fix: invalid params, in one sentence.
        throw requestError(error, error instanceof PromptImageError ? -32602 : undefined);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const connection = app.connect(stream);
  const close = async () => {
    for (const session of sessions.values()) await session.close();
    sessions.clear();
    connection.close();
  };
  return { closed: connection.closed, close };
}
