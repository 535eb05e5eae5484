import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { AUGGY_BIN, copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';

const startServer = chatServersPerTest();

const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

function auggy(args: string[], options: { input?: string } = {}) {
  return execa('node', [AUGGY_BIN, ...args], { reject: false, env: cleanEnv, input: options.input, extendEnv: true });
}

function printArgs(dir: string, url: string, ...rest: string[]): string[] {
  return ['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest];
}

function sessionLines(dir: string): unknown[] {
  const root = join(dir, '.auggy', 'sessions');
  const [id] = readdirSync(root);
  return readFileSync(join(root, id, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

describe('auggy run --print against a Chat Completions server', () => {
  it('prints a plain answer and exits 0 after one inference offering request_input', async () => {
    const server = await startServer([{ text: 'Hello from the loopback model.' }]);
    const dir = makeAgentFolder();
    const result = await auggy(printArgs(dir, server.url, 'hi there'));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Hello from the loopback model.');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.body.stream).toBe(true);
    expect(request.body.messages[0]).toMatchObject({ role: 'system' });
    expect(String(request.body.messages[0].content)).toContain('You are a test agent.');
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: 'hi there' });
    expect(request.body.tools?.map((t) => t.function.name)).toEqual(['request_input']);
  });

  it('request_input ends the turn input-required: exit 3, the prompt as message, one inference', async () => {
    const prompt = 'Which production service should I deploy: api-west or api-east?';
    const server = await startServer([{ toolCalls: [{ name: 'request_input', args: { prompt, reason: 'two targets' } }] }]);
    const dir = makeAgentFolder();
    const result = await auggy(printArgs(dir, server.url, 'deploy it', '--output', 'json'));
    expect(result.exitCode).toBe(3);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ status: 'input-required', message: prompt, text: prompt });
    expect(summary.sessionId).toEqual(expect.any(String));
    expect(summary.toolCalls).toEqual([expect.objectContaining({ name: 'request_input', result: prompt })]);
    expect(server.requests).toHaveLength(1);
    // The reason is traced in the session, never shown.
    expect(`${summary.text} ${summary.message}`).not.toContain('two targets');
    expect(JSON.stringify(sessionLines(dir))).toContain('two targets');
  });

  it("stream-json and the session log carry request_input's question as the same interrupt object serve sends", async () => {
    const prompt = 'Which region?';
    const server = await startServer([{ toolCalls: [{ name: 'request_input', args: { prompt }, id: 'call_region' }] }]);
    const dir = makeAgentFolder();
    const result = await auggy(printArgs(dir, server.url, 'deploy', '--output', 'stream-json'));
    expect(result.exitCode).toBe(3);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const interrupt = {
      id: 'int_call_region',
      reason: 'input_required',
      message: prompt,
      toolCallId: 'call_region',
      responseSchema: { type: 'string', title: prompt },
    };
    expect(lines.find((line) => line.type === 'RUN_FINISHED')).toMatchObject({ result: { status: 'input-required', interrupts: [interrupt] } });
    expect(lines.at(-1)).toMatchObject({ type: 'RESULT', interrupts: [interrupt] });
    const logged = sessionLines(dir).find((line) => (line as { event?: { type?: string } }).event?.type === 'RUN_FINISHED');
    expect(logged).toMatchObject({ event: { result: { interrupts: [interrupt] } } });
  });

  it('answering with --session continues the conversation: the next request carries the first exchange', async () => {
    const prompt = 'Which region?';
    const server = await startServer([{ toolCalls: [{ name: 'request_input', args: { prompt } }] }, { text: 'Deploying to eu-west.' }]);
    const dir = makeAgentFolder();
    const first = await auggy(printArgs(dir, server.url, 'deploy', '--output', 'json'));
    expect(first.exitCode).toBe(3);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const second = await auggy(printArgs(dir, server.url, '-', '--session', sessionId, '--output', 'json'), { input: 'eu-west' });
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'completed', sessionId, text: 'Deploying to eu-west.' });
    const messages = server.requests[1].body.messages;
    const roles = messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages[2].tool_calls?.[0].function.name).toBe('request_input');
    expect(messages[3]).toMatchObject({ role: 'tool', content: prompt });
    expect(messages[4]).toMatchObject({ role: 'assistant', content: prompt });
    expect(messages[5]).toEqual({ role: 'user', content: 'eu-west' });
  });

  it('retries an HTTP 500 and then succeeds', async () => {
    const server = await startServer([{ status: 500 }, { text: 'Recovered.' }]);
    const result = await auggy(printArgs(makeAgentFolder(), server.url, 'hello'));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Recovered.');
    expect(server.requests).toHaveLength(2);
  });

  it('a stream cut off midway fails the turn with exit 1 and leaves the session readable', async () => {
    const server = await startServer([{ text: 'This answer will be cut short by the server', dropAfterChunks: 3 }]);
    const dir = makeAgentFolder();
    const result = await auggy(printArgs(dir, server.url, 'hello', '--output', 'json'));
    expect(result.exitCode).toBe(1);
    const summary = JSON.parse(result.stdout) as { status: string; message: string };
    expect(summary.status).toBe('failed');
    expect(summary.message).toMatch(/cut off/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const lines = sessionLines(dir);
    expect(lines[0]).toMatchObject({ kind: 'header' });
    expect(JSON.stringify(lines)).toContain('RUN_ERROR');
  });

  it('HTTP 401 fails with one sentence about the credentials', async () => {
    const server = await startServer([{ status: 401 }]);
    const result = await auggy(printArgs(makeAgentFolder(), server.url, 'hello'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/refused the credentials .*HTTP 401/);
    expect(server.requests).toHaveLength(1);
  });

  it('HTTP 404 names the model and what to check', async () => {
    const server = await startServer([{ status: 404 }]);
    const result = await auggy(printArgs(makeAgentFolder(), server.url, 'hello'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/does not know model test/);
  });

  it('an unreachable server fails the turn and says so', async () => {
    const result = await auggy(printArgs(makeAgentFolder(), 'http://127.0.0.1:9/v1', 'hello'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:9/);
  });

  it('a missing provider key is a usage error naming the variable, and writes no session', async () => {
    const dir = makeAgentFolder();
    const result = await auggy(['run', dir, '--print', 'hello', '--model', 'openai:gpt-5.4-mini']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^auggy: OPENAI_API_KEY is not set, so the openai provider cannot be called/);
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });

  it('stream-json writes one event per line, ending with the result', async () => {
    const server = await startServer([{ text: 'Streamed.' }]);
    const result = await auggy(printArgs(makeAgentFolder(), server.url, 'hello', '--output', 'stream-json'));
    expect(result.exitCode).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0].type).toBe('RUN_STARTED');
    expect(events.map((e) => e.type)).toContain('TEXT_MESSAGE_CONTENT');
    expect(events.at(-2)?.type).toBe('RUN_FINISHED');
    expect(events.at(-1)).toMatchObject({ type: 'RESULT', status: 'completed', text: 'Streamed.' });
  });

  it('Ctrl+C mid-turn cancels with exit 130 and keeps the partial text in the session', async () => {
    const server = await startServer([{ text: 'Thinking about a long answer', hold: true }]);
    const dir = makeAgentFolder();
    const child = execa('node', [AUGGY_BIN, ...printArgs(dir, server.url, 'hello')], { reject: false, env: cleanEnv });
    await server.held();
    // Wait until the partial text reached the terminal, then interrupt.
    await new Promise<void>((resolve) => child.stdout?.on('data', () => resolve()));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/canceled/);
    const lines = JSON.stringify(sessionLines(dir));
    expect(lines).toContain('"status":"canceled"');
    expect(lines).toContain('Thinking');
  });

  it('a misspelt --model provider is a usage error with the nearest provider suggested', async () => {
    const result = await auggy(['run', makeAgentFolder(), '--print', 'hi', '--model', 'opneai:gpt']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(/did you mean openai:gpt\?$/);
  });

  it('refuses a session id that is not one of ours with exit 2', async () => {
    const dir = makeAgentFolder();
    for (const id of ['../../etc', 'no-such-session']) {
      const result = await auggy(['run', dir, '--print', 'hi', '--session', id]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('runs the bundled scripted example offline: the deploy request asks a question, the answer completes', async () => {
    const dir = copyExample('demo');
    const first = await auggy(['run', dir, '--print', 'deploy the api', '--output', 'json']);
    expect(first.exitCode).toBe(3);
    const { sessionId, message } = JSON.parse(first.stdout) as { sessionId: string; message: string };
    expect(message).toMatch(/api-west or api-east/);
    const second = await auggy(['run', dir, '--print', 'api-west', '--session', sessionId]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/Deploying/);
  });
});
