import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { AUGGY_BIN, REPO_ROOT, makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { callingModel } from '../helpers/mcp-agent.js';
import { everythingStdio } from '../helpers/mcp-servers.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';
import { scenario } from './harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const ECHO = 'mcp_everything_echo';
const CALL_ECHO = `call ${ECHO} {"message":"ship it"}`;
const TOOL_CHECKS = `      assertions:
        - { type: tools_called, params: { tools: [${ECHO}] } }
        - { type: no_tool_errors }`;

/** server-everything over stdio (through the recording tap) with its echo tool behind confirmTools. */
function echoAgent(): { dir: string; tap: string } {
  const tap = join(tempDir('auggy-tap-'), 'everything.log');
  const mcp = { mcpServers: { everything: everythingStdio(tap) }, auggy: { servers: { everything: { confirmTools: ['echo'] } } } };
  const dir = makeAgentFolder({ augments: ['turnControl', 'mcp'], files: { '.mcp.json': JSON.stringify(mcp, null, 2) } });
  writeFiles(dir, {
    'tests/approved.scenario.yaml': scenario(
      'echo runs once the person approves it',
      `    - content: '${CALL_ECHO}'\n      person: { approve: [${ECHO}] }\n${TOOL_CHECKS}`,
    ),
    'tests/refused.scenario.yaml': scenario('echo is refused without approval', `    - content: '${CALL_ECHO}'\n      person: { answers: {} }\n${TOOL_CHECKS}`),
  });
  return { dir, tap };
}

function auggyTest(args: string[]) {
  const env = {
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    AUGGY_MODEL: '',
    AUGGY_BASE_URL: '',
    AUGGY_API_KEY: '',
    NO_COLOR: '1',
    TMPDIR: tempDir('auggy-tmp-'),
  };
  return execa('node', [AUGGY_BIN, 'test', ...args], { reject: false, env, extendEnv: true, cwd: REPO_ROOT });
}

describe('auggy test answers MCP approvals with the scripted person', () => {
  it('a call the person approves runs on the real server; one they do not approve is refused, and each run stops its server', async () => {
    const server = await startChatServer(callingModel);
    servers.push(server);
    const { dir, tap } = echoAgent();
    const model = ['--model', 'openai-compatible:test', '--base-url', server.url];

    const approved = await auggyTest([dir, join(dir, 'tests/approved.scenario.yaml'), ...model]);
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toMatch(/^PASS {2}echo runs once the person approves it {2}\(/m);
    expect(approved.stdout).toMatch(/^scenarios: 1 passed, 0 failed \(1 total/m);
    expect(approved.exitCode).toBe(0);
    // The server really ran the call: its reply reached the model as the tool result.
    const toolResult = server.requests.flatMap((request) => request.body.messages).find((message) => message.role === 'tool');
    expect(String(toolResult?.content)).toContain('Echo: ship it');

    const both = await auggyTest([dir, ...model]);
    expect(both.stdout).toMatch(/^PASS {2}echo runs once the person approves it {2}\(/m);
    expect(both.stdout).toMatch(/^FAIL {2}echo is refused without approval {2}\(/m);
    expect(both.stdout).toContain(`${ECHO} (error)`);
    expect(both.stdout).toMatch(/^scenarios: 1 passed, 1 failed \(2 total/m);
    expect(both.exitCode).toBe(1);
    const refusal = server.requests.at(-1)?.body.messages.find((message) => message.role === 'tool');
    expect(String(refusal?.content)).toContain(`The person refused to let ${ECHO} run`);

    // Three runs in all, each server started and stopped before the next run began.
    const lifecycle = readFileSync(tap, 'utf8')
      .split('\n')
      .filter((line) => /^(pid|exit) /.test(line))
      .map((line) => line.split(' ')[0]);
    expect(lifecycle).toEqual(['pid', 'exit', 'pid', 'exit', 'pid', 'exit']);
  });
});
