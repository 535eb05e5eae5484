import type { Client } from '@a2a-js/sdk/client';
import type { AugmentFactory } from '../../kernel/augment.js';
import { configDiagnostics } from '../config-diagnostics.js';
import { a2aConfigSchema, type RemoteAgentConfig } from './config-schema.js';
import { connectTo } from './connect.js';
import { type RemoteAgent, remoteAgentTool } from './remote-tool.js';
import { WaitingCalls } from './waiting-calls.js';

function agentsOf(config: Record<string, unknown>): RemoteAgentConfig[] {
  const parsed = a2aConfigSchema.safeParse(config);
  return parsed.success ? parsed.data.agents : [];
}

export const a2aAugment: AugmentFactory = {
  type: 'a2a',
  skill: 'a2a',
  summary: "Makes remote A2A agents tools (a2a_<name>); a remote agent's question goes to the person here, and the answer back on its task.",
  validateConfig: (config, file) => configDiagnostics(a2aConfigSchema, config, file),
  describe(_agent, config) {
    const agents = agentsOf(config);
    return {
      id: 'a2a',
      type: 'a2a',
      tools: agents.map((agent) => `a2a_${agent.name}`),
      behavior: this.summary,
      rows: agents.map((agent) => ({ label: `a2a_${agent.name}`, value: agent.url })),
    };
  },
  create({ config, agent, session }) {
    const remotes: RemoteAgent[] = agentsOf(config).map((remote) => {
      let client: Promise<Client> | undefined;
      const token = remote.tokenEnv === undefined ? undefined : (agent.env[remote.tokenEnv] ?? process.env[remote.tokenEnv]);
      return {
        config: remote,
        connect: () => {
          // One card fetch per conversation; a failed one is tried again on the next call.
          client ??= connectTo(remote.url, token).catch((error: unknown) => {
            client = undefined;
            throw error;
          });
          return client;
        },
      };
    });
    const waiting = new WaitingCalls(session);
    const tools = remotes.map((remote) => remoteAgentTool(remote, waiting));
    return { id: 'a2a', tools: () => tools };
  },
};
