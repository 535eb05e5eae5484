import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KernelEvent } from '../../../src/kernel/events.js';
import type { ServerPool } from '../../../src/augments/mcp/server-pool.js';
import { customValues } from '../../helpers/scripted-person.js';
import { everythingStdio, filesystemStdio } from '../../helpers/mcp-servers.js';
import { callTool, poolFor, toolsContext } from './harness.js';

// server-everything twice: one with the default root (the agent folder), one told its roots in .mcp.json.
let pool: ServerPool;
let dir: string;

beforeAll(async () => {
  ({ pool, dir } = poolFor({
    mcpServers: { everything: everythingStdio(), scoped: everythingStdio(), files: { ...filesystemStdio('./workspace') } },
    auggy: { servers: { scoped: { roots: ['./workspace'] } } },
  }));
  mkdirSync(join(dir, 'workspace'));
  await pool.ensureAll();
}, 60_000);

afterAll(async () => pool?.close());

describe('MCP roots', () => {
  it('are advertised, so get-roots-list is offered, and answer with the agent folder', async () => {
    const { result } = await callTool(toolsContext(pool), 'mcp_everything_get_roots_list', {});
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain(pathToFileURL(dir).href);
  });

  it('for a server started with folders, are those folders, so server-filesystem ./workspace is not widened', async () => {
    const files = pool.connections.find((connection) => connection.config.name === 'files');
    expect(files?.roots()).toEqual([{ uri: pathToFileURL(join(dir, 'workspace')).href, name: 'workspace' }]);
  });

  it('are the folders .mcp.json names for the server, resolved in the agent folder', async () => {
    const { result } = await callTool(toolsContext(pool), 'mcp_scoped_get_roots_list', {});
    expect(result.content).toContain(pathToFileURL(join(dir, 'workspace')).href);
  });
});

describe('a tool that requires task-based execution', () => {
  it('simulate-research-query is called as a task: its status messages are progress, its report the result', async () => {
    const { result, events } = await callTool(toolsContext(pool), 'mcp_everything_simulate_research_query', { topic: 'tides' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(/Research Report: tides/);
    const messages = customValues(events, 'mcp.progress').map((note) => (note as { message?: string }).message);
    expect(messages).toContain('Gathering sources...');
  }, 30_000);

  it('a canceled turn stops the task and the model is told', async () => {
    const abort = new AbortController();
    const running = callTool(toolsContext(pool), 'mcp_everything_simulate_research_query', { topic: 'tides' }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    const { result } = await running;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/canceled with the turn/);
  }, 30_000);
});

describe('progress notifications', () => {
  it('every one arrives before the result, run after run', async () => {
    const runs = 24;
    const steps = 3;
    for (let run = 0; run < runs; run++) {
      const seen: KernelEvent[] = [];
      const { result, events } = await callTool(toolsContext(pool), 'mcp_everything_trigger_long_running_operation', { duration: 0.03, steps });
      seen.push(...events);
      expect(result.content).toMatch(/completed/);
      const progress = customValues(seen, 'mcp.progress').map((note) => (note as { progress: number }).progress);
      expect(progress, `run ${run + 1}`).toEqual([1, 2, 3]);
    }
  }, 60_000);
});
