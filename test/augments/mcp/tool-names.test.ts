import { afterAll, describe, expect, it } from 'vitest';
import { exposedNamesOf, exposedToolName, MAX_TOOL_NAME, shortenedNames } from '../../../src/augments/mcp/tool-names.js';
import { exposedTools } from '../../../src/augments/mcp/mcp-tools.js';
import { reportLines, reportOf } from '../../../src/augments/mcp/server-status.js';
import type { ServerPool } from '../../../src/augments/mcp/server-pool.js';
import { everythingStdio } from '../../helpers/mcp-servers.js';
import { callTool, poolFor, toolsContext } from './harness.js';

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LONG_SERVER = 'the-everything-reference-server-of-the-model-context-protocol';

describe('exposed tool names', () => {
  it('a name past 64 characters is cut and ends in a hash of the server and tool, the same every time', () => {
    const name = exposedToolName(LONG_SERVER, 'trigger-long-running-operation');
    expect(name).toMatch(PROVIDER_NAME);
    expect(name.length).toBe(MAX_TOOL_NAME);
    expect(name).toMatch(/^mcp_the_everything_refer_trigger_long_running_operation_[0-9a-f]{8}$/);
    expect(exposedToolName(LONG_SERVER, 'trigger-long-running-operation')).toBe(name);
    expect(exposedToolName(LONG_SERVER, 'trigger-long-running-operations')).not.toBe(name);
  });

  it('a short name stays mcp_<server>_<tool>', () => {
    expect(exposedToolName('everything', 'echo')).toBe('mcp_everything_echo');
  });

  it('two tools that read alike once made safe get distinct names, the first keeping the plain one', () => {
    const names = exposedNamesOf('ops', [{ name: 'deploy-now' }, { name: 'deploy_now' }]);
    expect(names.get('deploy-now')).toBe('mcp_ops_deploy_now');
    expect(names.get('deploy_now')).toMatch(/^mcp_ops_deploy_now_[0-9a-f]{8}$/);
    expect(shortenedNames('ops', names)).toEqual([{ tool: 'deploy_now', exposed: names.get('deploy_now') }]);
  });
});

describe('a real server with a long name', () => {
  let pool: ServerPool | undefined;
  afterAll(async () => pool?.close());

  it('offers every tool within 64 characters, callable by that name, and mcp list shows what each shortened one is', async () => {
    ({ pool } = poolFor({ mcpServers: { [LONG_SERVER]: everythingStdio() } }));
    await pool.ensureAll();
    const tools = exposedTools(toolsContext(pool));
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.name).toMatch(PROVIDER_NAME);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);

    const echo = exposedToolName(LONG_SERVER, 'echo');
    const { result } = await callTool(toolsContext(pool), echo, { message: 'hi' });
    expect(result.content).toMatch(/hi/);

    const [report] = pool.connections.map(reportOf);
    expect(report?.shortened).toContainEqual({ tool: 'echo', exposed: echo });
    expect(reportLines(report ? [report] : [])).toContain(`  shortened: ${echo} is echo`);
  }, 60_000);
});
