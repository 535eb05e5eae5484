import type { LoadedAgent } from '../../agent/types.js';
import { checkFolderWritable } from '../../session/folder-writable.js';
import { openSessionStore } from '../../session/open-store.js';
import { sessionsRoot } from '../../session/session-paths.js';
import type { CheckResult } from './check-result.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where sessions would be kept: the agent folder can be written (a probe file made and removed),
 * or, with `--store`, PostgreSQL is reached, its schema in place, and answers the store's check.
 */
export async function storeCheck(agent: LoadedAgent, url: string | undefined): Promise<CheckResult> {
  if (url === undefined) {
    const root = sessionsRoot(agent.dir);
    try {
      await checkFolderWritable(root, agent.dir);
      return { name: 'store', status: 'ok', message: `sessions can be written in ${root}`, details: { kind: 'folder', location: root } };
    } catch (error) {
      return { name: 'store', status: 'fail', message: messageOf(error), details: { kind: 'folder', location: root } };
    }
  }
  try {
    const store = await openSessionStore({ dir: agent.dir, name: agent.yaml.name, id: agent.yaml.id }, { url, log: () => undefined });
    try {
      await store.check?.();
      return { name: 'store', status: 'ok', message: `PostgreSQL at ${store.location} answers`, details: { kind: store.kind, location: store.location } };
    } finally {
      await store.close();
    }
  } catch (error) {
    return { name: 'store', status: 'fail', message: messageOf(error), details: { kind: 'postgres' } };
  }
}
