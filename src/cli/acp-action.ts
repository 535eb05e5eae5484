import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { EXIT } from '../hosts/exit-codes.js';
import { startAcpAgent } from '../hosts/acp/acp-agent.js';
import { AgentFolders } from '../hosts/acp/agent-folders.js';
import { requireExistingFolder } from '../hosts/open-conversation.js';
import { hostScopeFor } from './allow-tool.js';
import type { ModelOptionValues } from './model-options.js';
import { packagePath } from './package-root.js';
import { storeChoiceFrom, type StoreOptionValues } from './store-option.js';

export interface AcpOptionValues extends ModelOptionValues, StoreOptionValues {
  allowTool: string[];
}

function log(line: string): void {
  process.stderr.write(`auggy acp: ${line}\n`);
}

/** `auggy acp`: an ACP agent on stdin/stdout until the client closes stdin (or SIGTERM/SIGINT). */
export async function acpCommand(dir: string | undefined, options: AcpOptionValues): Promise<number> {
  if (dir !== undefined) requireExistingFolder(resolve(dir), dir);
  const store = storeChoiceFrom(options);
  // stdout is the protocol's: anything a library prints with console.log goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  const folders = new AgentFolders({
    overrides: { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout },
    store,
    hostFor: (target) => hostScopeFor(target.agent, options.allowTool),
    log,
  });
  const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const host = startAcpAgent(stream, { ...(dir === undefined ? {} : { dir: resolve(dir) }), folders, version, log });
  const stop = () => void host.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await host.closed;
  } finally {
    await host.close();
    await folders.close();
  }
  return EXIT.ok;
}
