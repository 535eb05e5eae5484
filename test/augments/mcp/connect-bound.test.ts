import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auggy } from '../../helpers/auggy-cli.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { eventually, isAlive } from '../../helpers/mcp-servers.js';
import { ServeScope } from '../../helpers/serve-process.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A server entry that is a real `sleep`: it never says a word of MCP. The shell writes its pid to
 * `starts` before it becomes sleep, so a test counts how often auggy started it.
 */
function sleepingServer(starts: string): Record<string, unknown> {
  return { command: 'sh', args: ['-c', `echo $$ >> '${starts}'; exec sleep 1000`] };
}

function startsOf(starts: string): number[] {
  return existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
}

function agentWith(mcpJson: Record<string, unknown>): string {
  return makeAgentFolder({ augments: ['turnControl', 'mcp'], files: { '.mcp.json': JSON.stringify(mcpJson, null, 2) } });
}

const scope = new ServeScope();
afterEach(async () => {
  await scope.stop();
});

describe('an MCP server that never speaks MCP', () => {
  it('auggy validate gives up on it after its connectTimeoutSeconds, names it and the setting, and leaves no process behind', async () => {
    const starts = join(tempDir('auggy-sleep-'), 'starts');
    const dir = agentWith({ mcpServers: { sleeper: sleepingServer(starts) }, auggy: { servers: { sleeper: { connectTimeoutSeconds: 1 } } } });
    const run = await auggy(['validate', dir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /\.mcp\.json warning mcpServers\.sleeper: could not be started to list its tools: it did not answer MCP's handshake and tool list within 1 s; check that sh -c .*sleep 1000 is an MCP server, or give it longer with auggy\.servers\.sleeper\.connectTimeoutSeconds in \.mcp\.json/,
    );
    const [pid] = startsOf(starts);
    expect(pid).toBeGreaterThan(0);
    await eventually(() => !isAlive(pid), `the sleeping server (pid ${pid}) to be stopped`);
  });

  it('the top-level auggy.connectTimeoutSeconds bounds every server, and auggy doctor fails on it in one line', async () => {
    const starts = join(tempDir('auggy-sleep-'), 'starts');
    const dir = agentWith({ mcpServers: { sleeper: sleepingServer(starts) }, auggy: { connectTimeoutSeconds: 1 } });
    const run = await auggy(['doctor', dir]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/\nfail\s+mcp sleeper\s+sleeper did not start: it did not answer MCP's handshake and tool list within 1 s;/);
  });

  it('a turn waits for it once; the next turn of the same server does not start or wait for it again', async () => {
    const starts = join(tempDir('auggy-sleep-'), 'starts');
    const dir = agentWith({ mcpServers: { sleeper: sleepingServer(starts) }, auggy: { connectTimeoutSeconds: 1 } });
    const { chat, serve } = await scope.start(dir, () => ({ text: 'done' }));
    const threadId = randomUUID();
    for (const text of ['first', 'second']) {
      const response = await fetch(`${serve.url}/agent/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          threadId,
          runId: randomUUID(),
          messages: [{ id: randomUUID(), role: 'user', content: text }],
          tools: [],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      });
      expect(await response.text()).toContain('RUN_FINISHED');
    }
    expect(chat.requests).toHaveLength(2);
    expect(startsOf(starts)).toHaveLength(1);
    // The model is told the server is unavailable, on the second turn too.
    const system = chat.requests[1].body.messages[0];
    expect(String(system.content)).toMatch(/These MCP servers are unavailable right now.*sleeper \(it did not answer MCP's handshake/);
    expect(serve.stderr()).toMatch(/MCP server sleeper was given up on: .*; it is not started again until auggy restarts/);
  });
});
