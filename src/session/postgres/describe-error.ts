import { SessionError, StoreUnreachableError } from '../session-error.js';
import { redactStoreUrl } from './store-url.js';

interface PgLikeError {
  code?: string;
  message?: string;
}

/** Why the store could not be used, in one sentence that says what to check. */
export function describeStoreError(error: unknown, url: string): string {
  const where = redactStoreUrl(url);
  const { code, message = String(error) } = (typeof error === 'object' && error !== null ? error : {}) as PgLikeError;
  switch (code) {
    case 'ECONNREFUSED':
      return `the session store ${where} refused the connection; check that PostgreSQL is running there and --store names the right host and port`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the session store's host in ${where} is not known; check --store`;
    case 'ETIMEDOUT':
      return `the session store ${where} did not answer in time; check the network and --store`;
    case '28P01':
      return `the session store ${where} refused the password; check the user and password (in the URL or PGPASSWORD)`;
    case '28000':
      return `the session store ${where} does not let this user in (${message}); check the user and pg_hba.conf`;
    case '3D000':
      return `the session store ${where} has no such database (${message}); create it first (createdb) or fix --store`;
    case '42501':
      return `the session store ${where} does not let this user create or change auggy's tables (${message}); grant it or use an owner`;
    default:
      return `the session store ${where} failed: ${message}`;
  }
}

/** Error codes that mean the server is not there (down, restarting, out of reach), not that a request was wrong. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

function unreachable(error: unknown): boolean {
  const { code, message = '' } = (typeof error === 'object' && error !== null ? error : {}) as PgLikeError;
  // 08xxx are PostgreSQL's connection exceptions; node-postgres says "Connection terminated" for a socket that closed.
  return (
    (code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(message)
  );
}

/** The SessionError for a failure of the store: StoreUnreachableError when the server is not there. */
export function storeError(error: unknown, url: string): SessionError {
  if (error instanceof SessionError) return error;
  const message = describeStoreError(error, url);
  return unreachable(error) ? new StoreUnreachableError(message) : new SessionError(message);
}
