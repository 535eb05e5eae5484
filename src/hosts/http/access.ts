import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-io.js';

/** Only these reach the machine itself; any other bind address is reachable from elsewhere. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // An IPv4-mapped loopback address (::ffff:127.0.0.1) is loopback too.
  return /^::ffff:127\./.test(bare);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Checks `Authorization: Bearer <token>`. Digests of equal length are compared in constant
 * time, so neither the token's content nor its length leaks through response timing.
 */
export function requireBearer(req: IncomingMessage, token: string | undefined): void {
  if (token === undefined) return;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const challenge = { 'www-authenticate': 'Bearer realm="auggy"' };
  if (!match) throw new HttpError(401, 'this route needs an Authorization: Bearer <token> header', challenge);
  if (!timingSafeEqual(digest(match[1]), digest(token))) throw new HttpError(401, 'the bearer token is wrong', challenge);
}
