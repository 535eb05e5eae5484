import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent, type Message } from '@ag-ui/client';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatReply } from '../helpers/chat-server.js';
import { checkRunSequence, validateEach } from '../helpers/agui-events.js';
import { ServeScope, serveRefusal, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const scope = new ServeScope();
afterEach(() => scope.stop());

const SECRET = 'sk-loopback-secret-0123456789';

/** One run through the official client; resolves with every event it saw. */
async function run(serve: ServeProcess, text = 'hello'): Promise<BaseEvent[]> {
  const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
  const events: BaseEvent[] = [];
  agent.addMessage({ id: randomUUID(), role: 'user', content: text } satisfies Message);
  const runId = `run-${randomUUID()}`;
  await agent.runAgent({ runId }, { onEvent: ({ event }) => void events.push(event) }).catch(() => undefined);
  checkRunSequence(validateEach(events), { threadId: agent.threadId, runId });
  return events;
}

function serveWith(replies: ChatReply[], options: { maxInferenceLoops?: number } = {}) {
  const dir = makeAgentFolder({ maxInferenceLoops: options.maxInferenceLoops });
  return scope.start(dir, replies, ['--timeout', '1']);
}

/** The RUN_ERROR a client saw, after checking it holds neither the server's address nor a key. */
function clientError(events: BaseEvent[], chatUrl: string): { code?: string; message: string } {
  const error = events.at(-1) as BaseEvent & { code?: string; message: string };
  expect(error.type).toBe('RUN_ERROR');
  const said = JSON.stringify(error);
  expect(said).not.toContain(new URL(chatUrl).host);
  expect(said).not.toContain('127.0.0.1');
  expect(said).not.toContain(SECRET);
  return error;
}

describe('serve tells a web client the kind of failure, never the internals', () => {
  it('a silent model server: provider_timeout, saying how long and which setting', async () => {
    const { serve, chat } = await serveWith([{ silent: true }]);
    const error = clientError(await run(serve), chat.url);
    expect(error).toMatchObject({
      code: 'provider_timeout',
      message: 'no response from openai-compatible:test for 1 s; the server may be busy; raise engine.timeoutSeconds',
    });
  });

  it("a 500 with llama-server's message: provider_error for the client, the message in the operator's log", async () => {
    const jinja = { status: 500, errorMessage: 'tools param requires --jinja flag' } as const;
    const { serve, chat } = await serveWith([jinja, jinja, jinja]);
    const error = clientError(await run(serve), chat.url);
    expect(error.code).toBe('provider_error');
    expect(error.message).not.toContain('jinja');
    expect(await serve.waitForStderr(/run \S+ failed: /)).toMatch(
      /127\.0\.0\.1:\d+ had a server error \(HTTP 500\) after 3 attempts: "tools param requires --jinja flag"/,
    );
  });

  it('refused credentials: provider_auth, and the key is nowhere in what the client sees', async () => {
    const chat = await startChatServer([{ status: 401, errorMessage: `Incorrect API key provided: ${SECRET}` }]);
    const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${chat.url}\n  apiKeyEnv: LOOPBACK_KEY\n` });
    try {
      const serve = scope.adopt(await startServe(dir, [], { LOOPBACK_KEY: SECRET }));
      const error = clientError(await run(serve), chat.url);
      expect(error.code).toBe('provider_auth');
      expect(chat.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(await serve.waitForStderr(/run \S+ failed: /)).toMatch(/refused the credentials .*HTTP 401.*check LOOPBACK_KEY/);
    } finally {
      await chat.close();
    }
  });

  it("an unreachable server: provider_unreachable; where it looked is in the operator's log only", async () => {
    const gone = await startChatServer([]);
    await gone.close();
    const serve = scope.adopt(await startServe(makeAgentFolder(), ['--model', 'openai-compatible:test', '--base-url', gone.url, '--timeout', '5']));
    const error = clientError(await run(serve), gone.url);
    expect(error.code).toBe('provider_unreachable');
    expect(await serve.waitForStderr(/run \S+ failed: /)).toContain(`could not reach ${new URL(gone.url).origin}`);
  });

  it("a failing userAsk evaluator: the client reads the kind, the session and the operator's log the whole sentence", async () => {
    const failing = { status: 500, errorMessage: 'evaluator backend exploded' } as const;
    const dir = makeAgentFolder({ augments: ['turnControl', 'userAsk'] });
    const { serve, chat } = await scope.start(dir, [{ text: 'Started.' }, failing, failing, failing], ['--timeout', '1']);
    const events = await run(serve, 'deploy the api');
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const custom = events.filter((event) => event.type === 'CUSTOM') as Array<BaseEvent & { name: string; value: Record<string, unknown> }>;
    const evaluation = custom.find((event) => event.name === 'userAsk.evaluation');
    expect(evaluation?.value).toMatchObject({
      ok: false,
      outcome: null,
      code: 'provider_error',
      error: 'the model provider had an error; try again later, or ask the operator to look at the server log',
    });
    expect(evaluation?.value).not.toHaveProperty('clientError');
    const line = custom.find((event) => event.name === 'auggy.system' && String(event.value.text).startsWith('user ask not evaluated'));
    expect(line?.value).toEqual({
      text: 'user ask not evaluated: the evaluator call failed: the model provider had an error; try again later, or ask the operator to look at the server log (the ask stays as it was)',
    });
    const said = JSON.stringify(events);
    expect(said).not.toContain(new URL(chat.url).host);
    expect(said).not.toContain('exploded');
    expect(await serve.waitForStderr(/user ask not evaluated/)).toMatch(/127\.0\.0\.1:\d+ had a server error \(HTTP 500\).*"evaluator backend exploded"/);
  });

  it('a cut stream, an empty reply and a spent budget each have their own code', async () => {
    const { serve, chat } = await serveWith([{ text: 'Half of a reply', dropAfterChunks: 3 }, {}, { toolCalls: [{ name: 'no_such_tool', args: {} }] }], {
      maxInferenceLoops: 1,
    });
    expect(clientError(await run(serve), chat.url)).toMatchObject({
      code: 'stream_cut',
      message: expect.stringMatching(/^the reply from openai-compatible:test was cut off after \d+ characters/),
    });
    expect(clientError(await run(serve), chat.url)).toMatchObject({ code: 'empty_reply', message: 'the model returned an empty reply' });
    expect(clientError(await run(serve), chat.url)).toMatchObject({ code: 'budget_exhausted', message: expect.stringMatching(/settings\.maxInferenceLoops/) });
  });

  it('a missing key or a malformed base URL stops serve before it listens, and writes nothing', async () => {
    const dir = makeAgentFolder();
    const keyless = await serveRefusal([dir, '--port', '0', '--model', 'openai:gpt-5.4-mini']);
    expect(keyless.exitCode).toBe(2);
    expect(keyless.stderr.trim()).toMatch(/^auggy: OPENAI_API_KEY is not set, so the openai provider cannot be called/);
    const malformed = await serveRefusal([dir, '--port', '0', '--base-url', 'ftp://example']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain('--base-url "ftp://example" is not an http(s) URL');
    expect(keyless.stdout + malformed.stdout).not.toMatch(/listening/);
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });
});
