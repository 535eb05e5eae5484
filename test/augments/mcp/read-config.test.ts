import { describe, expect, it } from 'vitest';
import { readMcpConfig } from '../../../src/augments/mcp/read-config.js';
import { envLookup } from '../../../src/augments/mcp/interpolate.js';
import { exposedToolName, matchesPattern } from '../../../src/augments/mcp/tool-names.js';
import { tempDir, writeFiles } from '../../helpers/temp-dir.js';

function read(text: string, env: Record<string, string> = {}) {
  const dir = tempDir('auggy-mcp-config-');
  writeFiles(dir, { '.mcp.json': text });
  return readMcpConfig(dir, envLookup(env, {}));
}

// The shape of the example, which is the shape real auggy folders and Claude Code share.
const EXAMPLE = JSON.stringify(
  {
    mcpServers: {
      files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', './workspace'], env: { LOG: '${LOG_LEVEL}' } },
      ops: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${OPS_TOKEN}' } },
    },
    auggy: { servers: { ops: { allowedTools: ['status', 'deploy'], blockedTools: ['delete_all'], confirmTools: ['deploy'] } } },
  },
  null,
  2,
);

describe('.mcp.json', () => {
  it('reads the mcpServers shape with the auggy policies merged per server', () => {
    const result = read(EXAMPLE, { LOG_LEVEL: 'debug', OPS_TOKEN: 'secret' });
    expect(result.diagnostics).toEqual([]);
    expect(result.servers.map((s) => [s.name, s.transport])).toEqual([
      ['files', 'stdio'],
      ['ops', 'streamable-http'],
    ]);
    expect(result.servers[1].policy).toEqual({ allowedTools: ['status', 'deploy'], blockedTools: ['delete_all'], confirmTools: ['deploy'] });
  });

  it('a missing ${VAR} is an error naming it and where it is used', () => {
    const result = read(EXAMPLE, { LOG_LEVEL: 'debug' });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: '.mcp.json',
        line: 19,
        column: 9,
        field: 'mcpServers.ops.headers.Authorization',
        message: expect.stringMatching(/\$\{OPS_TOKEN\} is not set; set OPS_TOKEN in the environment or in the agent's .env/),
      }),
    ]);
    expect(result.servers.map((s) => s.name)).toEqual(['files']);
  });

  it('takes http as streamable-http, sse as legacy, and ${VAR:-fallback}', () => {
    const result = read(
      JSON.stringify({
        mcpServers: { a: { type: 'http', url: 'http://127.0.0.1:1/mcp' }, b: { type: 'sse', url: 'http://127.0.0.1:1/sse', headers: { X: '${NOPE:-none}' } } },
      }),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.servers.map((s) => s.transport)).toEqual(['streamable-http', 'sse']);
  });

  it('warns about unknown keys and other releases\' settings, keeps "$comment" quiet', () => {
    const result = read(
      JSON.stringify(
        {
          $comment: 'notes',
          extra: 1,
          mcpServers: { a: { command: 'x', colour: 'red', $comment: ['why'] } },
          auggy: { servers: { a: { cloud: 'disabled' }, ghost: {} } },
        },
        null,
        2,
      ),
    );
    expect(result.diagnostics.map((d) => [d.severity, d.field, d.message.split(';')[0]])).toEqual([
      ['warning', 'extra', expect.stringMatching(/is not a key auggy knows here/)],
      ['warning', 'auggy.servers.a.cloud', 'is a setting of other auggy releases and does nothing here'],
      ['warning', 'auggy.servers.ghost', expect.stringMatching(/names no server in mcpServers \(a\)/)],
      ['warning', 'mcpServers.a.colour', expect.stringMatching(/is not a key auggy knows here/)],
    ]);
    expect(result.servers).toHaveLength(1);
  });

  it('refuses a bad shape with a sentence saying what to write', () => {
    expect(read('{"servers": {}}').diagnostics.map((d) => d.message)).toContainEqual(expect.stringMatching(/needs "mcpServers"/));
    expect(read(JSON.stringify({ mcpServers: { 'bad name': { command: 'x' } } })).diagnostics[0].message).toMatch(/must start with a letter or digit/);
    expect(read(JSON.stringify({ mcpServers: { a: { type: 'websocket', url: 'ws://x' } } })).diagnostics[0].message).toBe(
      'type "websocket" is not one of stdio, streamable-http, http, sse',
    );
    expect(read(JSON.stringify({ mcpServers: { a: { args: [] } } })).diagnostics[0].message).toMatch(/neither a command .* nor a url/);
    expect(read(JSON.stringify({ mcpServers: { a: { command: 'x' } }, auggy: { servers: { a: { timeoutSeconds: 0 } } } })).diagnostics[0]).toMatchObject({
      field: 'auggy.servers.a.timeoutSeconds',
    });
  });

  it('JSON with comments is refused with the "$comment" way to write notes', () => {
    const result = read('{\n  // my servers\n  "mcpServers": {}\n}\n');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', line: 2, message: expect.stringMatching(/JSON has no comments: write notes as a "\$comment" key/) }),
    ]);
  });
});

describe('tool names', () => {
  it('are mcp_<server>_<tool> with anything but letters, digits and _ made _', () => {
    expect(exposedToolName('everything', 'trigger-long-running-operation')).toBe('mcp_everything_trigger_long_running_operation');
    expect(exposedToolName('my-ops', 'deploy.now')).toBe('mcp_my_ops_deploy_now');
  });

  it('--allow-tool patterns match with * and ?', () => {
    expect(matchesPattern('mcp_ops_*', 'mcp_ops_deploy')).toBe(true);
    expect(matchesPattern('mcp_ops_*', 'mcp_files_write_file')).toBe(false);
    expect(matchesPattern('mcp_ops_deplo?', 'mcp_ops_deploy')).toBe(true);
    expect(matchesPattern('mcp_ops_deploy', 'mcp_ops_deploy_all')).toBe(false);
  });
});
