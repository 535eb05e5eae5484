import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '@agentclientprotocol/sdk';
import { AcpAgentProcess, nonJsonRpcLines } from '../helpers/acp-agent-process.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { callingModel, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { EVERYTHING_BIN, startEverythingHttp } from '../helpers/mcp-servers.js';

// server-everything over stdio; .mcp.json lists get-sum under confirmTools, so it asks first.
const { dir } = mcpAgentFolder();
let chat: ChatServer;
let acp: AcpAgentProcess;

beforeAll(async () => {
  chat = await startChatServer(callingModel);
  acp = AcpAgentProcess.start(dir, { args: ['--model', 'openai-compatible:test', '--base-url', chat.url] });
  await acp.initialize();
});

afterAll(async () => {
  expect(await acp.stop()).toBe(0);
  await chat.close();
});

function approvalEvents(sessionId: string): Record<string, unknown>[] {
  return readFileSync(join(dir, '.auggy', 'sessions', sessionId, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { event?: { name?: string; value?: Record<string, unknown> } })
    .flatMap((entry) => (entry.event?.name === 'mcp.approval' ? [entry.event.value ?? {}] : []));
}

const SUM = 'call mcp_everything_get_sum {"a":2,"b":3}';

describe('auggy acp: MCP approvals through session/request_permission', () => {
  it('an MCP tool call names its server, and an allowed call runs and completes with its result', async () => {
    const sessionId = await acp.newSession(dir);
    acp.person.permit = () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    const before = acp.permissions.length;
    expect(await acp.prompt(sessionId, SUM)).toMatchObject({ stopReason: 'end_turn' });
    const [asked] = acp.permissions.slice(before);
    expect(asked.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(asked.toolCall).toMatchObject({ title: 'mcp_everything_get_sum (MCP server everything)' });
    const call = acp.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({ title: 'mcp_everything_get_sum (MCP server everything)', _meta: { auggy: { mcpServer: 'everything' } } });
    const done = acp.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(JSON.stringify(done)).toContain('5');
    expect(approvalEvents(sessionId)).toEqual([expect.objectContaining({ toolName: 'mcp_everything_get_sum', decision: 'approved', by: 'person' })]);
  });

  it('a rejected call does not run: the tool call fails and the model reads the refusal', async () => {
    const sessionId = await acp.newSession(dir);
    acp.person.permit = () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
    const requests = chat.requests.length;
    expect(await acp.prompt(sessionId, SUM)).toMatchObject({ stopReason: 'end_turn' });
    const failed = acp.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(JSON.stringify(failed)).toMatch(/refused to let mcp_everything_get_sum run/);
    expect(toolResults(chat.requests[requests + 1])[0]).toMatch(/The person refused to let mcp_everything_get_sum run/);
    expect(approvalEvents(sessionId)).toEqual([expect.objectContaining({ decision: 'refused', by: 'person' })]);
  });

  it('"always" lasts for the session: allow always and reject always are not asked again', async () => {
    const allowing = await acp.newSession(dir);
    acp.person.permit = () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
    let before = acp.permissions.length;
    await acp.prompt(allowing, SUM);
    await acp.prompt(allowing, SUM);
    expect(acp.permissions.length - before).toBe(1);
    expect(approvalEvents(allowing).map((e) => e.by)).toEqual(['person', 'session']);

    const rejecting = await acp.newSession(dir);
    acp.person.permit = () => ({ outcome: { outcome: 'selected', optionId: 'reject_always' } });
    before = acp.permissions.length;
    await acp.prompt(rejecting, SUM);
    await acp.prompt(rejecting, SUM);
    expect(acp.permissions.length - before).toBe(1);
    expect(approvalEvents(rejecting).map((e) => e.decision)).toEqual(['refused', 'refused']);
  });

  it('a cancelled permission request is a refusal', async () => {
    const sessionId = await acp.newSession(dir);
    acp.person.permit = () => ({ outcome: { outcome: 'cancelled' } });
    await acp.prompt(sessionId, SUM);
    expect(approvalEvents(sessionId)).toEqual([expect.objectContaining({ decision: 'refused' })]);
  });

  it("the editor's MCP servers join .mcp.json's, over HTTP and stdio; the editor's wins a name clash, said once", async () => {
    const http = await startEverythingHttp();
    try {
      const mcpServers: McpServer[] = [
        { type: 'http', name: 'remote', url: http.url, headers: [] },
        // "files" is .mcp.json's filesystem server; the editor's one of that name is server-everything.
        { name: 'files', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], env: [] },
      ];
      const { sessionId } = await acp.agent.request('session/new', { cwd: dir, mcpServers });
      const viaHttp = await acp.prompt(sessionId, 'call mcp_remote_echo {"message":"over http"}');
      expect(viaHttp.stopReason).toBe('end_turn');
      expect(acp.replyText(sessionId)).toContain('Echo: over http');
      await acp.prompt(sessionId, 'call mcp_files_echo {"message":"the editor\'s files"}');
      expect(acp.replyText(sessionId)).toContain("Echo: the editor's files");
      const call = acp.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call' && u.title.startsWith('mcp_remote_echo'));
      expect(call).toMatchObject({ title: 'mcp_remote_echo (MCP server remote)' });
      expect(acp.stderr.match(/the editor's MCP server files replaces the one of the same name in .mcp.json/g)).toHaveLength(1);
      await acp.agent.request('session/close', { sessionId });
    } finally {
      await http.stop();
    }
  });

  it('stdout carries JSON-RPC messages only, with the MCP servers running under it', () => {
    expect(nonJsonRpcLines(acp.stdout)).toEqual([]);
  });
});
