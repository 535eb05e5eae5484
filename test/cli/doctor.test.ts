import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auggy } from '../helpers/auggy-cli.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { everythingStdio } from '../helpers/mcp-servers.js';

interface DoctorReport {
  ok: boolean;
  dir: string;
  checks: { name: string; status: 'ok' | 'warn' | 'fail' | 'skip'; message: string; details?: Record<string, unknown> }[];
}

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function chatServer(): Promise<ChatServer> {
  const server = await startChatServer(() => ({ text: 'OK' }));
  servers.push(server);
  return server;
}

/** An agent whose engine is the loopback server (or a port nothing listens on). */
function agentAt(url: string, options: { augments?: string[]; files?: Record<string, string> } = {}): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n`, ...options });
}

function lineOf(stdout: string, name: string): string {
  return stdout.split('\n').find((line) => line.split(/\s+/)[1] === name) ?? `(no ${name} line in:\n${stdout})`;
}

async function doctorJson(dir: string, ...rest: string[]): Promise<{ exitCode: number | undefined; report: DoctorReport }> {
  const run = await auggy(['doctor', dir, '--json', ...rest]);
  return { exitCode: run.exitCode, report: JSON.parse(run.stdout) as DoctorReport };
}

describe('auggy doctor', () => {
  it('with the model server up, every check passes and the model line says which model answered and how fast', async () => {
    const server = await chatServer();
    const dir = agentAt(server.url);
    const run = await auggy(['doctor', dir]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(lineOf(run.stdout, 'model')).toMatch(/^ok\s+model\s+openai-compatible:test answered in \d+ ms \("OK"\)$/);
    expect(lineOf(run.stdout, 'folder')).toMatch(/^ok\s+folder\s+.*loads: no problems found$/);
    expect(lineOf(run.stdout, 'store')).toMatch(/^ok\s+store\s+sessions can be written in .*\.auggy\/sessions$/);
    expect(run.stdout).toMatch(/\ndoctor: no check failed/);
    // One tiny request, with no tools and a handful of output tokens.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.tools).toBeUndefined();
    expect(Number(server.requests[0].body.max_tokens ?? server.requests[0].body.max_completion_tokens)).toBeLessThanOrEqual(16);
  });

  it('with the model server down, the model check fails with the reason and the exit code is 1', async () => {
    const server = await chatServer();
    const url = server.url;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const run = await auggy(['doctor', agentAt(url)]);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'model')).toMatch(/^fail\s+model\s+could not reach http:\/\/127\.0\.0\.1:\d+.*base URL right\?$/);
    expect(run.stdout).toMatch(/\ndoctor: 1 check failed/);
    expect(run.stderr).toBe('');
  });

  it('--json gives ok, the folder and one object per check with name, status and message', async () => {
    const server = await chatServer();
    const { exitCode, report } = await doctorJson(agentAt(server.url));
    expect(exitCode).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual(['node', 'folder', 'keys', 'model', 'mcp', 'terminal', 'store']);
    for (const check of report.checks) {
      expect(['ok', 'warn', 'fail', 'skip']).toContain(check.status);
      expect(check.message.length).toBeGreaterThan(0);
    }
    const model = report.checks.find((check) => check.name === 'model');
    expect(model?.details).toMatchObject({ model: 'openai-compatible:test', reply: 'OK' });
    expect(typeof model?.details?.ms).toBe('number');
    // Spawned without a terminal: the chat's check warns, and a warning fails nothing.
    expect(report.checks.find((check) => check.name === 'terminal')).toMatchObject({ status: 'warn', details: { stdoutTerminal: false } });
    expect(report.checks.find((check) => check.name === 'node')?.details).toMatchObject({ version: process.versions.node, engines: '>=20' });
  });

  it('a folder with an error fails the folder check, names the file and line, and skips what needs a loaded folder', async () => {
    const dir = agentAt('http://127.0.0.1:9/v1');
    writeFileSync(join(dir, 'agent.yaml'), 'name: broken\nengine:\n  provider: opneai\n  model: x\nidentity: ./identity.md\n');
    const run = await auggy(['doctor', dir]);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'folder')).toMatch(/^fail\s+folder\s+agent\.yaml:3:\d+ error engine\.provider: .*opneai/);
    expect(lineOf(run.stdout, 'model')).toMatch(/^skip\s+model\s+not checked: the folder does not load/);
    expect(run.stdout).not.toMatch(/\n\s+at /);
  });

  it('a missing key fails the keys check with the variable to set, and the model is not called', async () => {
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: openai\n  model: gpt-5.4-mini\n' });
    const { exitCode, report } = await doctorJson(dir);
    expect(exitCode).toBe(1);
    expect(report.checks.find((check) => check.name === 'keys')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^OPENAI_API_KEY is not set/),
    });
    expect(report.checks.find((check) => check.name === 'model')?.status).toBe('skip');
  });

  it('each MCP server is started and reported on a line of its own', async () => {
    const server = await chatServer();
    const dir = agentAt(server.url, {
      augments: ['turnControl', 'mcp'],
      files: { '.mcp.json': JSON.stringify({ mcpServers: { everything: everythingStdio() } }) },
    });
    const run = await auggy(['doctor', dir]);
    expect(run.exitCode).toBe(0);
    expect(lineOf(run.stdout, 'mcp')).toMatch(/^ok\s+mcp everything\s+everything started \(stdio\): \d+ tools$/);
  });

  it('a session folder that cannot be made (a file where .auggy should be) fails the store check', async () => {
    const server = await chatServer();
    const dir = agentAt(server.url);
    writeFileSync(join(dir, '.auggy'), 'not a folder\n');
    const run = await auggy(['doctor', dir]);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'store')).toMatch(/^fail\s+store\s+.*\.auggy/);
  });

  it('--store with PostgreSQL unreachable fails the store check without a stack trace', async () => {
    const server = await chatServer();
    const { exitCode, report } = await doctorJson(agentAt(server.url), '--store', 'postgres://auggy@127.0.0.1:9/auggy');
    expect(exitCode).toBe(1);
    expect(report.checks.find((check) => check.name === 'store')).toMatchObject({ status: 'fail', message: expect.stringMatching(/refused the connection/) });
  });

  it('outside any agent folder it says so and exits 2', async () => {
    const run = await auggy(['doctor', '/']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/has no agent\.yaml/);
  });
});
