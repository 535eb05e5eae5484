import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_MB } from '../message-limit.js';

/** A refusal answered before any stream opens: an HTTP status and one readable sentence. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Clients resend the whole message history on every run, so the body may be far larger than
 * the one message we read from it; this cap guards memory and disk against a runaway upload
 * (serve's --max-body-mb sets it).
 */
export const MAX_BODY_BYTES = DEFAULT_MAX_BODY_MB * 1024 * 1024;

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is over ${limit / (1024 * 1024)} MiB; this server takes at most that (--max-body-mb)`, { connection: 'close' });
}

/** Reads the request body as UTF-8, refusing (413) once it passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge(limit));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    // A client that leaves mid-upload never sends 'end'; settle so the handler does not hang.
    req.on('close', () => {
      if (!req.complete) reject(new HttpError(400, 'the request body was cut off'));
    });
  });
}

/** Parses a JSON body; a syntax error is the client's mistake (400), said in one line. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.trim() === '') throw new HttpError(400, 'the request body is empty; send an AG-UI RunAgentInput as JSON');
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, `the request body is not valid JSON (${reason})`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { error: error.message }, error.headers);
}
