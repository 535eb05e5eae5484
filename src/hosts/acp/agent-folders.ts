import { resolve } from 'node:path';
import { UsageError } from '../exit-codes.js';
import type { HostScope } from '../../kernel/host-scope.js';
import type { ModelOverrides } from '../../model/model-spec.js';
import type { StoreChoice } from '../../session/open-store.js';
import type { SessionStore } from '../../session/store.js';
import { loadRunnableAgent, openAgentStore, type AgentTarget } from '../open-conversation.js';

/** An agent folder ready for sessions, or the one sentence that says why it is not. */
export type LoadedFolder =
  | { ok: true; target: AgentTarget; store: SessionStore }
  | { ok: false; problem: string /** The provider's key is not set. */; missingKey: boolean };

export interface AgentFoldersOptions {
  overrides: ModelOverrides;
  store: Omit<StoreChoice, 'log'>;
  /** Made once per folder: MCP servers and the like are shared by the folder's sessions. */
  hostFor(target: AgentTarget): HostScope;
  log(line: string): void;
}

/** The agent folders this process serves, each loaded (and its store opened) once. */
export class AgentFolders {
  private readonly loaded = new Map<string, Promise<LoadedFolder>>();

  constructor(private readonly options: AgentFoldersOptions) {}

  load(dir: string): Promise<LoadedFolder> {
    const key = resolve(dir);
    let found = this.loaded.get(key);
    if (!found) {
      found = this.open(key);
      this.loaded.set(key, found);
    }
    return found;
  }

  private async open(dir: string): Promise<LoadedFolder> {
    try {
      const target = await loadRunnableAgent(dir, this.options.overrides, (message) => this.options.log(`warning: ${message}`));
      target.host = this.options.hostFor(target);
      const store = await openAgentStore(target, this.options.store, this.options.log);
      return { ok: true, target, store };
    } catch (error) {
      if (error instanceof UsageError) return { ok: false, problem: error.message, missingKey: error.reason === 'missing-key' };
      throw error;
    }
  }

  async close(): Promise<void> {
    for (const folder of await Promise.all(this.loaded.values())) {
      if (!folder.ok) continue;
      await folder.store.close().catch(() => undefined);
      await folder.target.host?.close();
    }
  }
}
