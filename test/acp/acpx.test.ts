import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { AUGGY_BIN, REPO_ROOT, copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer, type ReceivedRequest } from '../helpers/chat-server.js';
import { callingModel, mcpAgentFolder } from '../helpers/mcp-agent.js';
import { tempDir } from '../helpers/temp-dir.js';

// acpx needs Node 22.13 or later: it runs on the pinned Node 24 the suite installs (.ci/node-24).
const NODE_24 = execFileSync(join(REPO_ROOT, '.ci', 'node-24'), { encoding: 'utf8' }).trim();
const ACPX = join(REPO_ROOT, 'node_modules', 'acpx', 'dist', 'cli.js');
// acpx keeps its session records under HOME: one of the test's own.
const HOME = tempDir('auggy-acpx-home-');
const CLEAN_ENV = { HOME, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

/** The command acpx spawns: `auggy acp <dir>` on the Node running the tests. */
function agentCommand(dir: string, ...args: string[]): string {
  return [process.execPath, AUGGY_BIN, 'acp', dir, ...args].map((part) => JSON.stringify(part)).join(' ');
}

function acpx(dir: string, agent: string, args: string[]) {
  // --ttl 1: the queue owner acpx leaves behind for later prompts exits soon after the test.
  return execa(NODE_24, [ACPX, '--agent', agent, '--cwd', dir, '--ttl', '1', ...args], { cwd: dir, reject: false, env: CLEAN_ENV, extendEnv: true });
}

/** The session/update notifications acpx printed with --format json. */
function updatesIn(stdout: string): { sessionUpdate: string; [key: string]: unknown }[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { method?: string; params?: { update?: { sessionUpdate: string } } })
    .flatMap((message) => (message.method === 'session/update' && message.params?.update ? [message.params.update] : []));
}

describe('acpx driving the demo agent headless', () => {
  const dir = copyExample('demo');
  const agent = agentCommand(dir);

  it('one turn: the reply streams and the agent lists its slash commands', async () => {
    const run = await acpx(dir, agent, ['--format', 'json', 'exec', 'hello']);
    expect(run.exitCode).toBe(0);
    const updates = updatesIn(run.stdout);
    const text = updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' ? [(u.content as { text: string }).text] : [])).join('');
    expect(text).toContain("Hello! I'm the demo agent.");
    const commands = updates.find((u) => u.sessionUpdate === 'available_commands_update')?.availableCommands as { name: string }[];
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['ask', 'board']));
    expect(run.stdout).toContain('"stopReason":"end_turn"');
  });

  it('a slash command sent as a prompt runs', async () => {
    const run = await acpx(dir, agent, ['--format', 'quiet', 'exec', '/board']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/progress/);
  });

  it('a question, then its answer in the same session', async () => {
    expect((await acpx(dir, agent, ['sessions', 'new', '--name', 'deploy'])).exitCode).toBe(0);
    const asked = await acpx(dir, agent, ['--format', 'quiet', 'prompt', '--session', 'deploy', 'deploy the api']);
    expect(asked.exitCode).toBe(0);
    expect(asked.stdout).toContain('Which production service should I deploy: api-west or api-east?');
    const answered = await acpx(dir, agent, ['--format', 'quiet', 'prompt', '--session', 'deploy', 'api-west']);
    expect(answered.stdout).toContain('Deploying that service now');
  });

  it('a questionnaire to a client without forms gets no answer at once, and the turn says so', async () => {
    const run = await acpx(dir, agent, ['--format', 'quiet', 'exec', 'plan the release']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Nobody answered the release questions');
  });

  it('a session made with auggy run --print is resumed and answered', async () => {
    const print = await auggy(['run', dir, '--print', 'deploy the api', '--output', 'json']);
    const { sessionId } = JSON.parse(print.stdout) as { sessionId: string };
    expect((await acpx(dir, agent, ['sessions', 'new', '--name', 'from-run', '--resume-session', sessionId])).exitCode).toBe(0);
    const answered = await acpx(dir, agent, ['--format', 'quiet', 'prompt', '--session', 'from-run', 'api-east']);
    expect(answered.stdout).toContain('Deploying that service now');
    const listed = await acpx(dir, agent, ['sessions', 'list']);
    expect(listed.stdout).toContain(sessionId);
  });
});

describe('acpx with an MCP agent: approvals', () => {
  let chat: ChatServer;
  const { dir } = mcpAgentFolder();
  beforeAll(async () => {
    chat = await startChatServer(callingModel);
  });
  afterAll(() => chat.close());

  it('--approve-all lets the call run; --deny-all refuses it', async () => {
    const agent = agentCommand(dir, '--model', 'openai-compatible:test', '--base-url', chat.url);
    const allowed = await acpx(dir, agent, ['--approve-all', '--format', 'quiet', 'exec', 'call mcp_everything_get_sum {"a":2,"b":3}']);
    expect(allowed.stdout).toMatch(/The tool said: .*5/);
    const refused = await acpx(dir, agent, ['--deny-all', '--format', 'quiet', 'exec', 'call mcp_everything_get_sum {"a":2,"b":3}']);
    expect(refused.stdout).toMatch(/The tool said: The person refused to let mcp_everything_get_sum run/);
  });
});

describe('acpx cancel', () => {
  let chat: ChatServer;
  const dir = makeAgentFolder();
  const slowOrPlain = (request: ReceivedRequest) =>
    JSON.stringify(request.body.messages.at(-1)?.content).includes('slow') ? { text: 'Thinking about a long answer', hold: true } : { text: 'Plain.' };
  beforeAll(async () => {
    chat = await startChatServer(slowOrPlain);
  });
  afterAll(() => chat.close());

  it('cancels the prompt mid-stream; the partial reply is kept in the session', async () => {
    const agent = agentCommand(dir, '--model', 'openai-compatible:test', '--base-url', chat.url);
    expect((await acpx(dir, agent, ['sessions', 'new', '--name', 'slow'])).exitCode).toBe(0);
    const prompt = acpx(dir, agent, ['--format', 'json', 'prompt', '--session', 'slow', 'slow answer please']);
    await chat.held();
    const cancel = await acpx(dir, agent, ['cancel', '--session', 'slow']);
    expect(cancel.exitCode).toBe(0);
    const run = await prompt;
    chat.release();
    expect(run.stdout).toContain('"stopReason":"cancelled"');
    const sessions = await auggy(['sessions', dir, '--json']);
    const [summary] = JSON.parse(sessions.stdout) as { ended: string }[];
    expect(summary.ended).toBe('canceled');
  });
});
