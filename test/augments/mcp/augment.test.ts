import { afterEach, describe, expect, it } from 'vitest';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { Conversation } from '../../../src/kernel/conversation.js';
import { createHostScope } from '../../../src/kernel/host-scope.js';
import { resolveModelSpec } from '../../../src/model/model-spec.js';
import { openSession } from '../../../src/session/session.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../../helpers/chat-server.js';
import { callingModel } from '../../helpers/mcp-agent.js';
import { everythingStdio } from '../../helpers/mcp-servers.js';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

async function open(mcpJson: unknown, host = createHostScope()) {
  chat = await startChatServer(callingModel);
  const dir = makeAgentFolder({
    augments: ['turnControl', 'mcp'],
    engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${chat.url}\n`,
    files: { '.mcp.json': JSON.stringify(mcpJson) },
  });
  const { agent, diagnostics } = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  if (!agent) throw new Error(JSON.stringify(diagnostics));
  const warnings: string[] = [];
  const conversation = await Conversation.open({
    augmentTypes: BUILTIN_AUGMENTS,
    agent,
    modelSpec: resolveModelSpec(agent, {}, {}),
    session: await openSession({ agentDir: dir, agentName: agent.yaml.name, agentId: agent.yaml.id }),
    warn: (message) => warnings.push(message),
    host,
  });
  return { conversation, warnings, host };
}

describe('the mcp augment in a conversation', () => {
  it('a server that does not start is a warning, the status line says so, and the model is told', async () => {
    const { conversation, warnings, host } = await open({ mcpServers: { ops: { command: '/nonexistent/auggy-no-such-server' } } });
    try {
      const result = await conversation.runTurn('hello');
      expect(result.status).toBe('completed');
      expect(warnings.some((w) => /^MCP server ops did not start: .*tried again at the next turn/.test(w))).toBe(true);
      expect(conversation.indicators()).toContain('mcp 0 servers · 0 tools · ops is down');
      const system = chat!.requests[0].body.messages[0];
      expect(String(system.content)).toMatch(/These MCP servers are unavailable right now.*ops/);
      const commands = conversation.commands().find((c) => c.name === 'mcp');
      expect((await commands!.run('')).lines[0]).toMatch(/^ops {2}stdio {2}failed: /);
    } finally {
      await host.close();
    }
  });

  it("the status line counts a connected server's tools, and --output json lists its status", async () => {
    const host = createHostScope();
    const first = await open({ mcpServers: { everything: everythingStdio() } }, host);
    try {
      await first.conversation.runTurn('call mcp_everything_echo {"message":"one"}');
      expect(first.conversation.indicators()[0]).toMatch(/^mcp 1 server · \d+ tools$/);
      expect(chat!.requests[1].body.messages.at(-1)?.content).toBe('Echo: one');
      const snapshot = first.conversation.snapshot() as { mcp: { servers: { name: string; status: string }[] } };
      expect(snapshot.mcp.servers).toEqual([expect.objectContaining({ name: 'everything', status: 'connected' })]);
    } finally {
      await host.close();
    }
  });
});
