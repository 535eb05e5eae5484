import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Console's page allows only its own files: no inline script or style, no other origin, no
 * frame around it. Model output is drawn as React elements, never as HTML, and this header is
 * the second fence should something slip. `blob:` images are the attachments the page fetched
 * itself (behind the token, so not a bare src): only a script of the page can make one.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The built page: `dist/console/`, found from this module whether it runs bundled or module by module. */
export function consoleAssetsDir(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'console', 'index.html')) && existsSync(join(dir, 'console', 'console.js'))) return join(dir, 'console');
  }
  return undefined;
}

/** The file a path names: the page at `/` and `/console`, its assets by bare name under `/console/`. */
export function consoleFile(path: string): string | undefined {
  if (path === '/' || path === '/console' || path === '/console/') return 'index.html';
  if (path === '/favicon.ico') return 'icon.svg';
  const asset = /^\/console\/([a-z0-9-]+\.(?:js|css|map|svg))$/.exec(path);
  return asset?.[1];
}

export interface ConsoleRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * Answers a GET for the Console's page or one of its assets; resolves to false when the path is
 * not the Console's, and to a refusal (the host sends it its own way) for a wrong method or a page
 * never built.
 */
export async function serveConsole(req: IncomingMessage, res: ServerResponse, path: string, assetsDir: string | undefined): Promise<boolean | ConsoleRefusal> {
  const file = consoleFile(path);
  if (file === undefined) return false;
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, message: `${path} takes GET, not ${method}`, headers: { allow: 'GET, HEAD' } };
  if (assetsDir === undefined) return { status: 503, message: 'the Console was not built into dist/console; run npm run build' };
  let body: Buffer;
  try {
    body = await readFile(join(assetsDir, file));
  } catch {
    return { status: 404, message: `the Console has no file ${file}` };
  }
  res.writeHead(200, {
    'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream',
    'content-length': body.length,
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // A new build must reach the browser at once; the files are small and read from local disk.
    'cache-control': 'no-cache',
  });
  res.end(method === 'HEAD' ? undefined : body);
  return true;
}
