import { execa, type ResultPromise } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './agent-fixture.js';

/** The reference servers, run from node_modules: nothing is downloaded while tests run. */
export const EVERYTHING_BIN = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const FILESYSTEM_BIN = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
export const MCP_TAP = join(REPO_ROOT, 'test', 'helpers', 'mcp-tap.mjs');

/** A `.mcp.json` server entry that runs server-everything over stdio, recorded through the tap when `log` is given. */
export function everythingStdio(log?: string): Record<string, unknown> {
  return log
    ? { type: 'stdio', command: process.execPath, args: [MCP_TAP, log, process.execPath, EVERYTHING_BIN, 'stdio'] }
    : { type: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
}

export function filesystemStdio(root: string): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [FILESYSTEM_BIN, root] };
}

/** A port free on loopback now (server-everything takes PORT and cannot report the one it got). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface HttpEverything {
  url: string;
  stop(): Promise<void>;
}

/** server-everything in streamableHttp mode, on a free port; resolves once it listens. */
export async function startEverythingHttp(): Promise<HttpEverything> {
  const port = await freePort();
  const child: ResultPromise = execa(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], { env: { PORT: String(port) }, reject: false, buffer: false });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (/listening on port/i.test(seen)) resolve();
    });
    child.stdout?.resume();
    void child.then(() => reject(new Error(`server-everything exited before listening: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      child.kill('SIGKILL');
      await child;
    },
  };
}

/** What a tap log recorded: the server's pid and the JSON-RPC messages each way. */
export function readTap(log: string): { pids: number[]; sent: Record<string, unknown>[]; received: Record<string, unknown>[] } {
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  const parse = (prefix: string) => lines.filter((line) => line.startsWith(prefix)).map((line) => JSON.parse(line.slice(2)) as Record<string, unknown>);
  return { pids: lines.filter((line) => line.startsWith('pid ')).map((line) => Number(line.slice(4))), sent: parse('> '), received: parse('< ') };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `check` holds, polling; rejects with `what` after `ms`. */
export async function eventually(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
