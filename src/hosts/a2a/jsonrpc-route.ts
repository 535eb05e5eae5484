import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, type AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION, isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { defaultServerCallContextBuilder, JsonRpcTransportHandler, type ServerCallContext, UnauthenticatedUser, validateVersion } from '@a2a-js/sdk/server';
import { requireBearer } from '../http/access.js';
import { HttpError, readBody } from '../http/http-io.js';
import { STORE_RETRY_SECONDS } from '../http/store-down.js';
import { STORE_DOWN_STATE } from './task-store.js';

/** JSON-RPC's own codes for what goes wrong before a method runs. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** A2A's code for a media type it does not take. */
const CONTENT_TYPE_NOT_SUPPORTED = -32005;

export interface JsonRpcRouteOptions {
  transport: JsonRpcTransportHandler;
  /** The SDK's v0.3 compat layer over the same request handler, for callers that speak v0.3's method names. */
  legacyTransport: LegacyJsonRpcTransportHandler;
  card: () => AgentCard;
  token?: string;
}

function sendRpc(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function rpcError(id: unknown, code: number, message: string): unknown {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } };
}

function isJsonType(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type === 'application/a2a+json';
}

async function readRequest(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RpcRefusal(400, PARSE_ERROR, `the request body is not JSON (${reason}); send one JSON-RPC 2.0 request`);
  }
}

class RpcRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function idOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
}

/** A refusal because the store was down says when to come back, as AG-UI's 503 does; any other is JSON-RPC's usual 200. */
function refusalStatus(context: ServerCallContext, headers: Record<string, string>): { status: number; headers: Record<string, string> } {
  if (context.state.get(STORE_DOWN_STATE) !== true) return { status: 200, headers };
  return { status: 503, headers: { ...headers, 'retry-after': STORE_RETRY_SECONDS } };
}

/** Writes the SDK's stream of JSON-RPC responses as Server-Sent Events, until it ends or the caller leaves. */
async function streamEvents(
  res: ServerResponse,
  stream: AsyncGenerator<unknown, void, undefined>,
  id: unknown,
  headers: Record<string, string>,
  context: ServerCallContext,
  mapError: (error: unknown) => { code: number; message: string },
): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  let first: IteratorResult<unknown, void>;
  try {
    first = await iterator.next();
  } catch (error) {
    // Refused before any event (no such task, a finished one): one JSON-RPC error, not a stream.
    const { code, message } = mapError(error);
    const refusal = refusalStatus(context, headers);
    sendRpc(res, refusal.status, rpcError(id, code, message), refusal.headers);
    return;
  }
  res.writeHead(200, { ...headers, ...SSE_HEADERS });
  // The caller may leave; the task goes on (it can subscribe again), only this stream ends.
  res.on('close', () => void iterator.return?.(undefined));
  try {
    if (!first.done) res.write(formatSSEEvent(first.value));
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (res.writableEnded || res.destroyed) break;
      res.write(formatSSEEvent(next.value));
    }
  } catch (error) {
    const { code, message } = mapError(error);
    if (!res.writableEnded) res.write(formatSSEErrorEvent(rpcError(id, code, message)));
  } finally {
    if (!res.writableEnded) res.end();
  }
}

/**
 * POST /a2a: one JSON-RPC 2.0 request, answered by the SDK's transport handler: a JSON response,
 * or an SSE stream for SendStreamingMessage and SubscribeToTask. What is refused before the SDK
 * sees it (no token, not JSON, too large) is answered in JSON-RPC's own form too, one sentence.
 */
export async function handleJsonRpc(req: IncomingMessage, res: ServerResponse, options: JsonRpcRouteOptions, headers: Record<string, string>): Promise<void> {
  let body: unknown;
  try {
    try {
      requireBearer(req, options.token);
    } catch (error) {
      if (error instanceof HttpError) throw new RpcRefusal(error.status, INVALID_REQUEST, error.message, error.headers);
      throw error;
    }
    if (!isJsonType(req)) throw new RpcRefusal(415, CONTENT_TYPE_NOT_SUPPORTED, 'A2A JSON-RPC takes Content-Type: application/json only');
    try {
      body = await readRequest(req);
    } catch (error) {
      if (error instanceof HttpError) throw new RpcRefusal(error.status, INVALID_REQUEST, error.message, error.headers);
      throw error;
    }
    const header = req.headers[A2A_VERSION_HEADER.toLowerCase()];
    // v0.3's method names (message/send, tasks/get) differ from v1.0's (SendMessage, GetTask): they say which layer answers.
    const legacy = isLegacyJsonRpcMethod((body as { method?: unknown } | null)?.method);
    const version = typeof header === 'string' && header !== '' ? header : legacy ? A2A_LEGACY_PROTOCOL_VERSION : '1.0';
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: new UnauthenticatedUser(),
      headers: req.headers,
      requestedVersion: version,
    });
    try {
      validateVersion(context.requestedVersion, options.card(), 'JSONRPC');
    } catch (error) {
      const { code, message } = JsonRpcTransportHandler.mapToJSONRPCError(error);
      throw new RpcRefusal(400, code, message);
    }
    const transport = legacy ? options.legacyTransport : options.transport;
    const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const answer = await transport.handle(body as Record<string, unknown>, context);
    if (typeof answer === 'object' && answer !== null && Symbol.asyncIterator in answer) {
      await streamEvents(res, answer as AsyncGenerator<unknown, void, undefined>, idOf(body), headers, context, mapError);
      return;
    }
    const refusal = refusalStatus(context, headers);
    sendRpc(res, refusal.status, answer, refusal.headers);
  } catch (error) {
    if (!(error instanceof RpcRefusal)) throw error;
    sendRpc(res, error.status, rpcError(idOf(body), error.code, error.message), { ...headers, ...error.headers });
  }
}
