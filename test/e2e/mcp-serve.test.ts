import { afterEach, describe, expect, it } from 'vitest';
import { postRun, readEvents, runInput, EventReader } from '../helpers/agui-events.js';
import { callingModel, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { eventually, isAlive, readTap } from '../helpers/mcp-servers.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

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
