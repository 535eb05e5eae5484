import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { DefaultRequestHandler, JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { SessionStore } from '../../session/store.js';
import { sendJson } from '../http/http-io.js';
import type { ServedRoutes } from '../http/served-routes.js';
import type { ThreadRegistry } from '../agui/thread-registry.js';
import type { AgentTarget } from '../open-conversation.js';
import { agentCard, agentCardJson } from './agent-card.js';
import { handleJsonRpc } from './jsonrpc-route.js';
import { SessionTaskStore } from './task-store.js';
import { TurnExecutor } from './turn-executor.js';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const JSONRPC_PATH = '/a2a';

export interface A2aRoutesOptions {
  target: AgentTarget;
  store: SessionStore;
  /** The server's threads (agui-server's, with its one model cache): a task runs as its context's thread's run. */
  threads: ThreadRegistry;
  /** Bearer token the JSON-RPC endpoint requires; the card names the scheme when it is set. */
  token?: string;
  maxMessageChars: number;
  interruptWaitMs?: number;
  /** auggy's version, the card's when agent.yaml names none. */
  version: string;
  log(line: string): void;
}

/** The endpoint as this caller reached the server (the Host header passed the server's check). */
function endpointFor(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}${JSONRPC_PATH}`;
}

/**
 * A2A on `auggy serve`: the Agent Card and the JSON-RPC endpoint, on the official SDK's request
 * handler, with tasks kept in the threads' sessions and run by the kernel as turns.
 */
export function createA2aRoutes(options: A2aRoutesOptions): ServedRoutes {
  const { target, store } = options;
  const card = (endpoint: string) =>
    agentCard(target.agent, { endpoint, bearer: options.token !== undefined, fallbackVersion: options.version, augmentTypes: target.augmentTypes });
  // The handler's own card is read for its capabilities and versions; the one callers fetch names their address.
  const handlerCard = card(`http://127.0.0.1${JSONRPC_PATH}`);
  const tasks = new SessionTaskStore(store, options.log);
  const executor = new TurnExecutor({
    tasks,
    threads: options.threads,
    maxMessageChars: options.maxMessageChars,
    interruptWaitMs: options.interruptWaitMs,
    log: options.log,
  });
  const handler = new DefaultRequestHandler(handlerCard, tasks, executor);
  const transport = new JsonRpcTransportHandler(handler);
  const legacyTransport = new LegacyJsonRpcTransportHandler(handler);
  return {
    routes: { [AGENT_CARD_PATH]: 'GET', [JSONRPC_PATH]: 'POST' },
    async handle(path: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>) {
      if (path === AGENT_CARD_PATH) {
        const version = req.headers[A2A_VERSION_HEADER.toLowerCase()];
        sendJson(res, 200, agentCardJson(card(endpointFor(req)), typeof version === 'string' ? version : undefined), headers);
        return;
      }
      await handleJsonRpc(req, res, { transport, legacyTransport, card: () => handlerCard, token: options.token }, headers);
    },
    // A task is a run of the server's threads, which shutdown waits for already.
    runs: () => [],
  };
}
