import { readAgentFile } from '../../agent/read-agent-file.js';
import { agentYamlSchema } from '../../agent/schema.js';
import { parseYamlSource } from '../../agent/yaml-source.js';
import type { StoreAgent } from '../../session/store.js';
import { UsageError } from '../../hosts/exit-codes.js';

/**
 * Which agent's sessions to look for in a shared store: agent.yaml's id and name, read without
 * loading the rest of the folder, so a folder with a broken skill still lists its sessions.
 */
export function storeAgentOf(agentDir: string): StoreAgent {
  const read = readAgentFile(agentDir, 'agent.yaml');
  if (!read.ok) throw new UsageError(`agent.yaml ${read.message}`);
  const data = parseYamlSource(read.text, 'agent.yaml').source?.data;
  const fields = agentYamlSchema.pick({ id: true, name: true }).safeParse(data);
  if (!fields.success) {
    throw new UsageError(`agent.yaml in ${agentDir} has no valid name: (or id:), which the store keeps its sessions under; auggy validate says what to fix`);
  }
  return { dir: agentDir, name: fields.data.name, id: fields.data.id };
}
