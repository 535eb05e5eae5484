import { loadAgent } from '../../src/agent/load-agent.js';
import { formatDiagnostic, type LoadedAgent } from '../../src/agent/types.js';
import type { CommandOutput } from '../../src/kernel/augment.js';
import { Conversation } from '../../src/kernel/conversation.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { openSession } from '../../src/session/session.js';
import { makeAgentFolder } from './agent-fixture.js';
import type { ReceivedRequest } from './chat-server.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

/** queue is the person's, progress the agent's, notes shared and starting with text. */
export const THREE_LINES = `type: board
config:
  lines:
    - name: queue
      owner: person
      description: What the person wants next.
    - name: progress
      owner: agent
    - name: notes
      initial: remember the changelog
`;

export function boardFolder(augmentYaml = THREE_LINES): string {
  return makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': augmentYaml } });
}

export async function loadFolder(dir: string): Promise<LoadedAgent> {
  const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  if (!loaded.agent) throw new Error(`fixture does not load: ${loaded.diagnostics.map(formatDiagnostic).join('; ')}`);
  return loaded.agent;
}

/** A Conversation on a real session, its model the loopback server (what --model openai-compatible:t --base-url does). */
export async function openBoardConversation(dir: string, url: string, sessionId?: string) {
  const agent = await loadFolder(dir);
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId });
  const warnings: string[] = [];
  const conversation = await Conversation.open({
    augmentTypes: BUILTIN_AUGMENTS,
    agent,
    modelSpec: { provider: 'openai-compatible', model: 't', baseURL: url },
    session,
    warn: (message) => warnings.push(message),
  });
  const events: KernelEvent[] = [];
  conversation.subscribe((event) => events.push(event));
  return { conversation, events, warnings };
}

export function runCommand(conversation: Conversation, args: string): Promise<CommandOutput> | CommandOutput {
  const board = conversation.commands().find((candidate) => candidate.name === 'board');
  if (!board) throw new Error('no /board command');
  return board.run(args);
}

export function systemPrompt(request: ReceivedRequest): string {
  return String(request.body.messages.find((message) => message.role === 'system')?.content ?? '');
}
