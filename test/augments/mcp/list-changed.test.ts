import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/agent-fixture.js';
import { exposedTools } from '../../../src/augments/mcp/mcp-tools.js';
import type { ServerPool } from '../../../src/augments/mcp/server-pool.js';
import { callTool, poolFor, toolsContext } from './harness.js';

// No reference server changes its tool list on request; this one, built on the official SDK, does.
let pool: ServerPool;
beforeAll(async () => {
  ({ pool } = poolFor({ mcpServers: { garden: { command: process.execPath, args: [join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'growing-server.mjs')] } } }));
  await pool.ensureAll();
}, 60_000);
afterAll(() => pool?.close());

describe('tools/list_changed', () => {
  it('refreshes the tool list, and settled() waits for it before the next round', async () => {
    const context = toolsContext(pool);
    expect(exposedTools(context).map((t) => t.name)).toEqual(['mcp_garden_grow']);
    await callTool(context, 'mcp_garden_grow', {});
    // What afterBatch does before the next inference round.
    await pool.settled();
    expect(exposedTools(context).map((t) => t.name)).toEqual(['mcp_garden_grow', 'mcp_garden_sprout']);
    expect((await callTool(context, 'mcp_garden_sprout', { name: 'basil' })).result.content).toBe('sprouted basil');
  });
});
