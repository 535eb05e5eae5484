import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { callingModel, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { isAlive, readTap } from '../helpers/mcp-servers.js';
import { tempDir } from '../helpers/temp-dir.js';

// Runs the built binary (`npm run build` first; `npm test` does) with the reference servers.
let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

function auggy(args: string[], cwd?: string) {
  return execa('node', [AUGGY_BIN, ...args], { reject: false, env: cleanEnv, extendEnv: true, cwd });
}

function print(dir: string, message: string, ...rest: string[]) {
  return auggy(['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', chat!.url, ...rest, message]);
}

function sessionEvents(dir: string): { kind: string; event?: { type: string; name?: string; value?: Record<string, unknown> } }[] {
  const root = join(dir, '.auggy', 'sessions');
  return readdirSync(root).flatMap((id) =>
    readFileSync(join(root, id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; event?: { type: string; name?: string; value?: Record<string, unknown> } }),
  );
}

describe('auggy run --print with MCP servers', () => {
  it('offers mcp_<server>_<tool> tools, sends the result back to the model, and leaves no server running', async () => {
    chat = await startChatServer(callingModel);
    const { dir, tap } = mcpAgentFolder();
    const result = await print(dir, 'call mcp_everything_echo {"message":"hello"}');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('The tool said: Echo: hello');
    const tools = chat.requests[0].body.tools ?? [];
    const echo = tools.find((t) => t.function.name === 'mcp_everything_echo');
    expect(echo?.function.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    expect(tools.map((t) => t.function.name)).toContain('mcp_files_write_file');
    expect(toolResults(chat.requests[1])).toEqual(['Echo: hello']);
    // Exiting stopped the server (and the tap that relayed it).
    const { pids } = readTap(tap);
    expect(pids).toHaveLength(1);
    expect(isAlive(pids[0])).toBe(false);
  });

  it('a server form is canceled at once, since nobody is at the prompt', async () => {
    chat = await startChatServer(callingModel);
    const { dir, tap } = mcpAgentFolder();
    const result = await print(dir, 'call mcp_everything_trigger_elicitation_request');
    expect(result.exitCode).toBe(0);
    expect(toolResults(chat.requests[1])[0]).toMatch(/User cancelled the elicitation dialog/);
    // The answer auggy sent to the server's elicitation/create.
    const { received, sent } = readTap(tap);
    const request = received.find((m) => m.method === 'elicitation/create');
    expect(sent.find((m) => m.id === request?.id && 'result' in m)?.result).toEqual({ action: 'cancel' });
    const names = sessionEvents(dir).flatMap((e) => (e.event?.type === 'CUSTOM' ? [e.event.name] : []));
    expect(names).toContain('questionnaire.result');
  });

  it('a confirmTools tool is refused headless, and runs with --allow-tool; both are in the session', async () => {
    chat = await startChatServer(callingModel);
    const { dir } = mcpAgentFolder();
    const refused = await print(dir, 'call mcp_everything_get_sum {"a":4,"b":4}');
    expect(refused.exitCode).toBe(0);
    expect(toolResults(chat.requests[1])[0]).toMatch(/^mcp_everything_get_sum needs the person's approval, and nobody is at the prompt/);
    const allowed = await print(dir, 'call mcp_everything_get_sum {"a":4,"b":4}', '--allow-tool', 'mcp_everything_*');
    expect(allowed.exitCode).toBe(0);
    expect(toolResults(chat.requests[3])[0]).toMatch(/8/);
    const approvals = sessionEvents(dir).flatMap((e) => (e.event?.name === 'mcp.approval' ? [e.event.value] : []));
    expect(approvals).toEqual([
      expect.objectContaining({ toolName: 'mcp_everything_get_sum', decision: 'refused', by: 'nobody', arguments: { a: 4, b: 4 } }),
      expect.objectContaining({ toolName: 'mcp_everything_get_sum', decision: 'approved', by: 'allow-tool' }),
    ]);
  });

  it('the filesystem server writes and reads a file in its folder, with --allow-tool for the write', async () => {
    chat = await startChatServer(callingModel);
    const { dir, files } = mcpAgentFolder();
    const path = join(files, 'hello.txt');
    const write = await print(
      dir,
      `call mcp_files_write_file {"path":${JSON.stringify(path)},"content":"written by auggy"}`,
      '--allow-tool',
      'mcp_files_write_file',
    );
    expect(write.exitCode).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('written by auggy');
    await print(dir, `call mcp_files_read_text_file {"path":${JSON.stringify(path)}}`);
    expect(toolResults(chat.requests[3])).toEqual(['written by auggy']);
  });

  it('--allow-tool is refused for an agent without mcp, and for a pattern that cannot be a tool name', async () => {
    chat = await startChatServer(callingModel);
    const plain = makeAgentFolder();
    const noMcp = await print(plain, 'hi', '--allow-tool', 'mcp_ops_*');
    expect(noMcp.exitCode).toBe(2);
    expect(noMcp.stderr).toMatch(/--allow-tool .* this agent does not list the mcp augment/);
    const { dir } = mcpAgentFolder();
    const bad = await print(dir, 'hi', '--allow-tool', 'mcp ops');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/is not a tool name or pattern/);
    expect(chat.requests).toHaveLength(0);
  });
});

describe('loading the MCP SDK', () => {
  const reporter = join(import.meta.dirname, '..', 'helpers', 'report-mcp-imports.mjs');
  const traced = (args: string[]) => execa('node', ['--import', reporter, AUGGY_BIN, ...args], { reject: false, env: cleanEnv, extendEnv: true });

  it('happens only for an agent that enables mcp', async () => {
    chat = await startChatServer(callingModel);
    const plain = makeAgentFolder();
    const run = await traced(['run', plain, '--print', '--model', 'openai-compatible:test', '--base-url', chat.url, 'hello']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toMatch(/mcp-sdk-loaded/);
    expect((await traced(['validate', plain])).stderr).not.toMatch(/mcp-sdk-loaded/);
    const { dir } = mcpAgentFolder();
    const withMcp = await traced(['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', chat.url, 'hello']);
    expect(withMcp.stderr).toMatch(/mcp-sdk-loaded @modelcontextprotocol\/sdk\/client\/index\.js/);
  });
});

describe('auggy mcp list, validate and create', () => {
  it('mcp list --json starts each server, reports its tools, and stops it', async () => {
    const { dir, tap } = mcpAgentFolder({ policy: { blockedTools: ['get-env'] } });
    const result = await auggy(['mcp', 'list', dir, '--json']);
    expect(result.exitCode).toBe(0);
    const { servers } = JSON.parse(result.stdout) as { servers: { name: string; status: string; tools: string[]; hidden: string[]; confirm: string[] }[] };
    expect(servers.map((s) => [s.name, s.status])).toEqual([
      ['everything', 'connected'],
      ['files', 'connected'],
    ]);
    expect(servers[0].tools).toContain('mcp_everything_trigger_elicitation_request');
    expect(servers[0].hidden).toEqual(['get-env']);
    expect(servers[0].confirm).toEqual(['mcp_everything_get_sum']);
    expect(servers[1].confirm).toContain('mcp_files_write_file');
    expect(isAlive(readTap(tap).pids[0])).toBe(false);
  });

  it('validate reports a missing variable as an error and an allowedTools entry naming no tool as a warning', async () => {
    const { dir } = mcpAgentFolder({ policy: { allowedTools: ['echo', 'ech0'] } });
    const config = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    const ok = await auggy(['validate', dir]);
    expect(ok.stdout).toMatch(/\.mcp\.json warning auggy\.servers\.everything\.allowedTools: "ech0" names no tool of everything/);
    expect(ok.exitCode).toBe(0);
    config.mcpServers.ops = { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${OPS_TOKEN_FOR_TEST}' } };
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify(config, null, 2));
    const broken = await auggy(['validate', dir, '--no-connect']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toMatch(/\.mcp\.json:\d+:\d+ error mcpServers\.ops\.headers\.Authorization: \$\{OPS_TOKEN_FOR_TEST\} is not set/);
  });

  it('create --augment mcp writes a commented .mcp.json that other MCP clients can read as JSON, and the folder validates', async () => {
    const parent = tempDir('auggy-create-');
    const created = await auggy(['create', 'tools', '--augment', 'mcp', '--yes', '--dir', parent]);
    expect(created.exitCode).toBe(0);
    const dir = join(parent, 'tools');
    const config = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ mcpServers: {}, auggy: { servers: {} } });
    expect((config.$comment as string[]).join(' ')).toMatch(/mcp_<server>_<tool>/);
    expect(existsSync(join(dir, 'skills', 'mcp', 'SKILL.md'))).toBe(true);
    expect(readFileSync(join(dir, 'augments', 'mcp', 'augment.yaml'), 'utf8')).toBe('type: mcp\n');
    const validated = await auggy(['validate', dir]);
    expect(validated.exitCode).toBe(0);
    expect(validated.stdout).not.toMatch(/ error /);
  });
});
