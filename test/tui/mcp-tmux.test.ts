import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { callingModel, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { eventually, isAlive, readTap } from '../helpers/mcp-servers.js';
import { tmuxAvailable } from '../helpers/tmux.js';

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});
// After the hook above: after-each hooks run last-registered first, so the chats end before their server closes.
const terminals = auggyTerminals();

function loopback(url: string): string[] {
  return ['--model', 'openai-compatible:test', '--base-url', url];
}

function approvals(dir: string): Record<string, unknown>[] {
  const root = join(dir, '.auggy', 'sessions');
  return readdirSync(root).flatMap((id) =>
    readFileSync(join(root, id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event?: { name?: string; value?: Record<string, unknown> } })
      .flatMap((line) => (line.event?.name === 'mcp.approval' && line.event.value ? [line.event.value] : [])),
  );
}

// The form of server-everything's trigger-elicitation-request, answered one field at a time.
const FORM_ANSWERS = ['Ada Lovelace', 'yes', '-', 'ada@example.com', 'https://ada.example', '1815-12-10', '7', '-', '3', 'Piano, Drums', '3', 'Salmon', '2'];

describe.skipIf(!tmuxAvailable())('the chat with MCP servers', { timeout: 240_000 }, () => {
  it('shows the servers in the status line and /mcp, asks before a confirmTools tool, and takes a server form field by field', async () => {
    chat = await startChatServer(callingModel);
    const { dir } = mcpAgentFolder();
    const terminal = await terminals.run(dir, loopback(chat.url), { width: 120, height: 40 });
    await terminal.waitForText(/mcp 2 servers · \d+ tools/);
    await sendLine(terminal, '/mcp');
    await terminal.waitForText(/everything {2}stdio {2}connected/);

    await sendLine(terminal, 'call mcp_everything_get_sum {"a":2,"b":3}');
    await terminal.waitForText('approve a tool call · everything · get-sum');
    expect(await terminal.screen()).toMatch(/"a": 2/);
    await sendLine(terminal, 'yes');
    await terminal.waitForText('The tool said: The sum of 2 and 3 is 5', { joined: true });
    // Who decided is said in the transcript, not only in the tool's result.
    expect(await terminal.screen()).toContain('› approved by you: mcp_everything_get_sum');

    await sendLine(terminal, 'call mcp_everything_get_sum {"a":1,"b":1}');
    await terminal.waitForText('approve a tool call · everything · get-sum');
    await sendLine(terminal, 'no');
    await terminal.waitForText('The person refused to let mcp_everything_get_sum run', { joined: true });
    expect(await terminal.screen()).toContain('› denied by you: mcp_everything_get_sum');
    expect(approvals(dir).map((a) => [a.decision, a.by])).toEqual([
      ['approved', 'person'],
      ['refused', 'person'],
    ]);

    await sendLine(terminal, 'call mcp_everything_trigger_elicitation_request');
    await terminal.waitForText('everything asks: Please provide inputs for the following fields:');
    for (const [index, answer] of FORM_ANSWERS.entries()) {
      await terminal.waitForText(`question ${index + 1} of ${FORM_ANSWERS.length} · asked by the MCP server everything`);
      await sendLine(terminal, answer);
    }
    await terminal.waitForText('The tool said: ✅ User provided the requested information!', { joined: true });
    const sent = toolResults(chat.requests.at(-1)!).at(-1) ?? '';
    expect(sent).toMatch(/"titledSingleSelectEnum": "hero-3"/);
    expect(sent).toMatch(/"untitledMultipleSelectEnum": \[\s*"Piano",\s*"Drums"\s*\]/);
    expect(sent).toMatch(/"integer": 7/);
  });

  it('shows progress of a long call, cancels it on Esc with notifications/cancelled, and leaves no server after exit', async () => {
    chat = await startChatServer(callingModel);
    const { dir, tap } = mcpAgentFolder();
    const terminal = await terminals.run(dir, loopback(chat.url), { width: 120, height: 40 });
    await terminal.waitForText(/mcp 2 servers/);
    await sendLine(terminal, 'call mcp_everything_trigger_long_running_operation {"duration":60,"steps":60}');
    await terminal.waitForText(/mcp mcp_everything_trigger_long_running_operation \d+\/60/);
    await terminal.press('Escape');
    await terminal.waitForText(/canceled/);
    await eventually(() => readTap(tap).sent.some((m) => m.method === 'notifications/cancelled'), 'the cancellation to reach the server');
    const { sent, pids } = readTap(tap);
    const call = sent.find((m) => m.method === 'tools/call');
    expect(sent.find((m) => m.method === 'notifications/cancelled')?.params).toMatchObject({ requestId: call?.id });
    await sendLine(terminal, '/exit');
    await terminal.waitForExit();
    await eventually(() => !isAlive(pids[0]), 'the server to stop');
  });
});
