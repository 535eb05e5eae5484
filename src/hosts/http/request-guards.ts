import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-io.js';

/** What a request must match to be served: who the server is, and whom it lets in. */
export interface RequestGuards {
  /** The address the server listens on (127.0.0.1, ::1, 0.0.0.0) and the --host it was given. */
  bound: { address: string; host: string };
  /** Extra names the Host header may carry (--allowed-host): a DNS name, a proxy's name. */
  allowedHosts: readonly string[];
  /** Browser origins that may call the server (--cors-origin); `*` lets any origin in. */
  corsOrigins: readonly string[];
}

/** A host name as it compares: lower case, IPv6 without brackets, no trailing dot. */
function normalHostname(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function hostnameOfHeader(host: string): string | undefined {
  try {
    return normalHostname(new URL(`http://${host}`).hostname);
  } catch {
    return undefined;
  }
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/**
 * Refuses (403) a Host header that names neither this server nor an allowed name. A page on
 * an attacker's domain that re-points its DNS at 127.0.0.1 (DNS rebinding) still sends its own
 * name as Host, so this is what keeps it away from /agent/run and /admin.
 */
export function checkHost(req: IncomingMessage, guards: RequestGuards): void {
  const header = req.headers.host;
  const name = header === undefined ? undefined : hostnameOfHeader(header);
  const allowed = new Set(['localhost', normalHostname(guards.bound.address), normalHostname(guards.bound.host), ...guards.allowedHosts.map(normalHostname)]);
  // A server on every address answers to each of the machine's addresses; an IP literal cannot be rebound.
  const anyAddress = WILDCARD_ADDRESSES.has(normalHostname(guards.bound.address)) && name !== undefined && isIP(name) !== 0;
  if (name !== undefined && (allowed.has(name) || anyAddress)) return;
  const shown = header === undefined ? 'no Host header' : `Host ${JSON.stringify(header.slice(0, 100))}`;
  throw new HttpError(403, `${shown} is not this server; call it by its address or localhost, or start it with --allowed-host <name>`);
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/** The listed origins in the form browsers send them (`https://app.example`, no path or trailing slash). */
export function normalOrigins(listed: readonly string[]): string[] {
  return listed.map((origin) => (origin === '*' ? '*' : (originOf(origin) ?? origin)));
}

/**
 * Refuses (403) a browser Origin that is neither the server's own nor listed with --cors-origin.
 * Requests without an Origin (curl, scripts, same-origin GETs) pass. Returns the origin to
 * name in CORS headers when it is a listed cross-origin caller.
 */
export function checkOrigin(req: IncomingMessage, guards: RequestGuards): string | undefined {
  const header = req.headers.origin;
  if (header === undefined) return undefined;
  const origin = originOf(header);
  if (origin !== undefined) {
    // The server's own pages (same host and port, whichever scheme a proxy in front speaks).
    if (req.headers.host !== undefined && new URL(origin).host === new URL(`http://${req.headers.host}`).host) return undefined;
    if (guards.corsOrigins.includes('*') || guards.corsOrigins.includes(origin)) return origin;
  }
  throw new HttpError(
    403,
    `requests from origin ${JSON.stringify(header.slice(0, 100))} are not allowed; start the server with --cors-origin ${origin ?? '<origin>'} to let that web app call it`,
  );
}

/**
 * POST /agent/run takes JSON only. A page may send a cross-site `text/plain` POST without a
 * CORS preflight, so anything but application/json is refused (415) before the body is read.
 */
export function requireJsonBody(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return;
  const shown = type === '' ? 'no Content-Type' : `Content-Type ${type}`;
  throw new HttpError(415, `${shown} is not accepted here; send the RunAgentInput with Content-Type: application/json`);
}
