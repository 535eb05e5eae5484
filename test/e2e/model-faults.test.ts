import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy, auggyPrint } from '../helpers/auggy-cli.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { transcriptFromEntries } from '../../src/session/transcript.js';

const startServer = chatServersPerTest();

/** An agent whose engine points at the loopback server, with a one-second idle timeout. */
function agentFor(url: string, engineExtra = '  timeoutSeconds: 1\n', augments?: string[]): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n${engineExtra}`, augments });
}

interface SessionLine {
  kind: string;
  event?: { type: string; code?: string; message?: string; delta?: string };
  message?: { role: string; content: unknown };
}

/** The one session the run wrote, read back line by line. */
function readSession(dir: string): SessionLine[] {
  const sessions = join(dir, '.auggy', 'sessions');
  const [id] = readdirSync(sessions);
  return readFileSync(join(sessions, id, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as SessionLine);
}

function runError(lines: SessionLine[]) {
  return lines.find((line) => line.event?.type === 'RUN_ERROR')?.event;
}

function printed(stdout: string): {
  status: string;
  finishReason: string;
  code?: string;
  text: string;
  message?: string;
  usage: { inputTokens: number; outputTokens: number };
} {
  return JSON.parse(stdout);
}

describe('a model server that fails, told in one true sentence', () => {
  it('never answering fails after engine.timeoutSeconds, once, naming the setting', async () => {
    const chat = await startServer([{ silent: true }]);
    const dir = agentFor(chat.url);
    const result = await auggy(['run', dir, '--print', 'hello']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      'auggy: turn failed: no response from openai-compatible:test for 1 s; the server may be busy; raise engine.timeoutSeconds',
    );
    // No retry: a silent server is told at once, not after two more silences.
    expect(chat.requests).toHaveLength(1);
    expect(runError(readSession(dir))).toMatchObject({ code: 'provider_timeout' });
  });

  it('--timeout overrides engine.timeoutSeconds', async () => {
    const chat = await startServer([{ silent: true }]);
    const dir = agentFor(chat.url, '  timeoutSeconds: 3600\n');
    const result = await auggy(['run', dir, '--print', 'hello', '--timeout', '1', '--output', 'json']);
    expect(result.exitCode).toBe(1);
    expect(printed(result.stdout)).toMatchObject({
      status: 'failed',
      code: 'provider_timeout',
      finishReason: 'error',
      message: expect.stringMatching(/for 1 s;/),
    });
  });

  it("a timeout beyond fetch's own 300 s bound still reaches the server and answers", async () => {
    // At 290 s and above the calls go through a dispatcher without Node's own 300 s limits.
    const chat = await startServer([{ text: 'Patient answer.' }]);
    const result = await auggy(['run', agentFor(chat.url), '--print', 'hello', '--timeout', '900']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('Patient answer.');
  });

  it('a stream that stalls after some text fails the same way and keeps the partial text', async () => {
    const chat = await startServer([{ text: 'Partial answer so far', stallAfterChunks: 3 }]);
    const dir = agentFor(chat.url);
    const result = await auggy(['run', dir, '--print', 'hello']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('Partial answer');
    expect(result.stderr).toMatch(/no response from openai-compatible:test for 1 s/);
    const lines = readSession(dir);
    // The log stores the text once (in its TEXT_MESSAGE_CONTENT entry); the transcript rebuilt from it has it.
    const transcript = transcriptFromEntries(lines as unknown as SessionEntry[]);
    expect(transcript.find((message) => message.role === 'assistant')).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Partial answer ' }] });
    expect(runError(lines)).toMatchObject({ code: 'provider_timeout' });
  });

  it('a stream cut off mid-reply says after how many characters, and keeps them', async () => {
    const chat = await startServer([{ text: 'Half of a reply that never ends', dropAfterChunks: 4 }]);
    const dir = agentFor(chat.url);
    const result = await auggy(['run', dir, '--print', 'hello', '--output', 'json']);
    expect(result.exitCode).toBe(1);
    const out = printed(result.stdout);
    expect(out).toMatchObject({ status: 'failed', code: 'stream_cut', text: 'Half of a ' });
    expect(out.message).toBe('the reply from openai-compatible:test was cut off after 10 characters; try again');
    expect(readSession(dir).some((line) => line.kind === 'message')).toBe(true);
  });

  it('finish_reason length completes, says the reply was cut at the output limit, and --output json tells it', async () => {
    const chat = await startServer([
      { text: 'A long answer that', finishReason: 'length' },
      { text: 'Again cut', finishReason: 'length' },
    ]);
    const dir = agentFor(chat.url, '  maxTokens: 64\n');
    const json = await auggy(['run', dir, '--print', 'hello', '--output', 'json']);
    expect(json.exitCode).toBe(0);
    expect(printed(json.stdout)).toMatchObject({ status: 'completed', finishReason: 'length', text: 'A long answer that' });
    expect(json.stderr).toContain('the reply was cut at the output limit (engine.maxTokens 64); raise engine.maxTokens for longer replies');
    const text = await auggy(['run', dir, '--print', 'hello']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.trim()).toBe('Again cut');
    expect(text.stderr).toMatch(/cut at the output limit/);
  });

  it('an empty reply fails with exit 1, whether the stream held a finish chunk or nothing at all', async () => {
    const chat = await startServer([{}, { bare: true }]);
    const dir = agentFor(chat.url);
    const first = await auggy(['run', dir, '--print', 'hello', '--output', 'json']);
    expect(first.exitCode).toBe(1);
    expect(printed(first.stdout)).toMatchObject({ status: 'failed', code: 'empty_reply', message: 'the model returned an empty reply', finishReason: 'stop' });
    const second = await auggy(['run', dir, '--print', 'hello']);
    expect(second.exitCode).toBe(1);
    expect(second.stderr.trim()).toBe('auggy: turn failed: the model returned an empty reply');
  });

  it("a 500 quotes the server's own message (llama-server's shape)", async () => {
    const jinja = { status: 500, errorMessage: 'tools param requires --jinja flag' } as const;
    const chat = await startServer([jinja, jinja, jinja]);
    const dir = agentFor(chat.url);
    const result = await auggy(['run', dir, '--print', 'hello']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^auggy: turn failed: http:\/\/127\.0\.0\.1:\d+ had a server error \(HTTP 500\) after 3 attempts: "tools param requires --jinja flag"$/,
    );
    expect(runError(readSession(dir))).toMatchObject({ code: 'provider_error' });
  });

  it('a 400 in the shape of vLLM or Ollama quotes the message, at most 200 characters of it', async () => {
    // Not a refusal for length (that one says what to do about the context): any other 400.
    const long = `'tools.0.function.parameters' is not a valid JSON Schema. ${'x'.repeat(300)}`;
    const chat = await startServer([
      { status: 400, errorShape: 'vllm', errorMessage: long },
      { status: 404, errorShape: 'ollama', errorMessage: 'model "nope" not found, try pulling it first' },
    ]);
    const dir = agentFor(chat.url);
    const vllm = await auggy(['run', dir, '--print', 'hello']);
    expect(vllm.exitCode).toBe(1);
    const quoted = /rejected the request \(HTTP 400\): (.*)$/.exec(vllm.stderr.trim())?.[1] ?? '';
    expect(quoted.startsWith("'tools.0.function.parameters' is not a valid JSON Schema.")).toBe(true);
    expect(quoted.length).toBe(201);
    const ollama = await auggy(['run', dir, '--print', 'hello']);
    expect(ollama.stderr).toMatch(/does not know model test or the endpoint \(HTTP 404\)/);
  });
});

describe('what every call sends and where it goes', () => {
  it('max_tokens is on every request: engine.maxTokens, or 4096 when absent', async () => {
    const chat = await startServer([{ toolCalls: [{ name: 'nothing_here', args: {} }] }, { text: 'Done.' }, { text: 'Again.' }]);
    const withLimit = agentFor(chat.url, '  maxTokens: 300\n');
    expect((await auggy(['run', withLimit, '--print', 'hello'])).exitCode).toBe(0);
    const plain = agentFor(chat.url, '');
    expect((await auggy(['run', plain, '--print', 'hello'])).exitCode).toBe(0);
    expect(chat.requests.map((request) => request.body.max_tokens)).toEqual([300, 300, 4096]);
  });

  it('a tool call whose arguments are not JSON is answered to the model as an error it can mend, and the turn goes on', async () => {
    const chat = await startServer([{ toolCalls: [{ name: 'request_input', args: '{"prompt": "Which', id: 'call_cut' }] }, { text: 'Let me ask again.' }]);
    const result = await auggy(['run', agentFor(chat.url), '--print', 'deploy']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('Let me ask again.');
    const [first, second] = chat.requests;
    expect(first.body.tools?.map((tool) => tool.function.name)).toEqual(['request_input']);
    const answered = second.body.messages.find((message) => message.role === 'tool');
    expect(answered).toMatchObject({ tool_call_id: 'call_cut' });
    expect(String(answered?.content)).toMatch(/^The arguments for request_input were not valid JSON \(.+\)\. Call it again with a JSON object\.$/);
  });

  it('--output json always carries finishReason: stop for an answer, tool-calls for a question', async () => {
    const chat = await startServer([{ text: 'Hi.' }, { toolCalls: [{ name: 'request_input', args: { prompt: 'Which one?' } }] }]);
    const dir = agentFor(chat.url);
    expect(printed((await auggy(['run', dir, '--print', 'hello', '--output', 'json'])).stdout)).toMatchObject({ status: 'completed', finishReason: 'stop' });
    const asked = await auggy(['run', dir, '--print', 'deploy', '--output', 'json']);
    expect(asked.exitCode).toBe(3);
    expect(printed(asked.stdout)).toMatchObject({ status: 'input-required', finishReason: 'tool-calls' });
  });

  it("the userAsk evaluator gets a small output limit, the timeout, and its tokens count in the turn's usage", async () => {
    const evaluation = JSON.stringify({ outcome: 'achieved', reason: 'It answered.' });
    const chat = await startServer([{ text: 'Hi.' }, { text: evaluation }, { text: 'Hi again.' }, { silent: true }]);
    const dir = agentFor(chat.url, '  timeoutSeconds: 1\n', ['turnControl', 'userAsk']);
    const judged = await auggy(['run', dir, '--print', 'hello', '--output', 'json']);
    expect(judged.exitCode).toBe(0);
    expect(printed(judged.stdout).usage).toEqual({ inputTokens: 22, outputTokens: 14 });
    expect(chat.requests[0].body.max_tokens).toBe(4096);
    expect(chat.requests[1].body.max_tokens).toBe(1024);
    const silent = await auggy(['run', dir, '--print', 'hello']);
    expect(silent.exitCode).toBe(0);
    expect(silent.stderr).toMatch(/no response from openai-compatible:test for 1 s; the server may be busy; raise engine.timeoutSeconds/);
  });

  it('OLLAMA_HOST in Ollama’s own form (no scheme) is where the ollama provider goes', async () => {
    const chat = await startServer([{ text: 'From ollama.' }]);
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: ollama\n  model: llama3.2\n' });
    const host = new URL(chat.url).host;
    const result = await auggy(['run', dir, '--print', 'hello'], { OLLAMA_HOST: host });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('From ollama.');
    expect(chat.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'llama3.2' } });
  });

  it('a malformed --base-url is a usage error naming it, before any session is written', async () => {
    const dir = makeAgentFolder();
    const result = await auggyPrint(dir, 'localhost:8000/v1', 'hello');
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('auggy: --base-url "localhost:8000/v1" is not an http(s) URL; write it like http://127.0.0.1:8000/v1');
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });

  it('a bad --timeout is a usage error', async () => {
    const result = await auggy(['run', makeAgentFolder(), '--print', 'hello', '--timeout', 'soon']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--timeout.*give a number of seconds above 0/);
  });
});
