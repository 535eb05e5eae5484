import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { THREE_LINES } from '../helpers/board-fixture.js';
import { postRun, readEvents, runInput, EventReader } from '../helpers/agui-events.js';
import { callingModel, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { eventually, isAlive, readTap } from '../helpers/mcp-servers.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

/** The processes `pid` started that are still running (for serve: its MCP servers). */
async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await execa('ps', ['-o', 'pid=', '--ppid', String(pid)], { reject: false });
  return String(stdout)
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
}

async function run(url: string, threadId: string, text: string) {
  const response = await postRun(url, runInput(threadId, text));
  expect(response.status).toBe(200);
  return readEvents(response);
}

describe('auggy serve with MCP servers', () => {
  it('two threads share one server process, and SIGTERM leaves none behind', async () => {
    const { dir, tap } = mcpAgentFolder();
    const { chat, serve } = await scope.start(dir, callingModel);
    const [first, second] = await Promise.all([
      run(serve.url, 'thread-a', 'call mcp_everything_echo {"message":"from a"}'),
      run(serve.url, 'thread-b', 'call mcp_everything_echo {"message":"from b"}'),
    ]);
    for (const events of [first, second]) expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const results = chat.requests.flatMap(toolResults).sort();
    expect(results).toEqual(['Echo: from a', 'Echo: from b']);
    const { pids } = readTap(tap);
    expect(pids).toHaveLength(1);
    serve.signal('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(isAlive(pids[0])).toBe(false);
  });

  it('board writes beside the runs use the server processes serve shares, and SIGTERM still ends serve', async () => {
    const { dir, tap } = mcpAgentFolder({ augments: ['turnControl', 'mcp', 'board'], files: { 'augments/board/augment.yaml': THREE_LINES } });
    const { serve } = await scope.start(dir, callingModel);
    const events = await run(serve.url, 'thread-board', 'call mcp_everything_echo {"message":"hello"}');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const before = await childrenOf(serve.pid);
    expect(before.length).toBeGreaterThan(0);
    for (let write = 0; write < 20; write++) {
      const response = await fetch(`${serve.url}/agent/board`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 'thread-board', lines: { queue: `item ${write}` } }),
      });
      expect(response.status).toBe(200);
    }
    expect((await childrenOf(serve.pid)).sort()).toEqual([...before].sort());
    expect(readTap(tap).pids).toHaveLength(1);
    serve.signal('SIGTERM');
    expect(await serve.exited).toBe(0);
    for (const pid of [...before, ...readTap(tap).pids]) expect(isAlive(pid)).toBe(false);
  });

  it('a server that exits mid-call is a tool error for the model, and the next turn restarts it', async () => {
    const { dir, tap } = mcpAgentFolder();
    const { chat, serve } = await scope.start(dir, callingModel);
    const response = await postRun(serve.url, runInput('thread-c', 'call mcp_everything_trigger_long_running_operation {"duration":30,"steps":30}'));
    const reader = new EventReader(response);
    await eventually(() => readTap(tap).sent.some((m) => m.method === 'tools/call'), 'the long call to reach the server');
    const [pid] = readTap(tap).pids;
    process.kill(pid, 'SIGKILL');
    await reader.rest();
    expect(toolResults(chat.requests[1])[0]).toMatch(/The MCP server everything stopped during the call to trigger-long-running-operation/);
    expect(await serve.waitForStderr(/MCP server everything stopped/)).toMatch(/its tools answer with an error until it is restarted at the next turn/);
    await run(serve.url, 'thread-c', 'call mcp_everything_echo {"message":"again"}');
    expect(toolResults(chat.requests[3]).at(-1)).toBe('Echo: again');
    expect(readTap(tap).pids).toHaveLength(2);
  });

  it('a confirmTools tool is refused where nobody is at the prompt, unless serve was given --allow-tool', async () => {
    const { dir } = mcpAgentFolder();
    const { chat, serve } = await scope.start(dir, callingModel, ['--allow-tool', 'mcp_everything_get_sum']);
    await run(serve.url, 'thread-d', 'call mcp_everything_get_sum {"a":2,"b":5}');
    expect(toolResults(chat.requests[1])[0]).toMatch(/7/);
    await run(serve.url, 'thread-d', 'call mcp_files_write_file {"path":"/nowhere/x.txt","content":"x"}');
    expect(toolResults(chat.requests[3]).at(-1)).toMatch(/needs the person's approval, and nobody is at the prompt/);
  });
});
