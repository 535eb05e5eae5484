import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { checkRunSequence, postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { serveRefusal, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { treeSnapshot } from '../helpers/temp-dir.js';

const TOKEN = 'test-token-5f0c2a4e';
const auth = { authorization: `Bearer ${TOKEN}` };

let chat: ChatServer;
let serve: ServeProcess;
let agentDir: string;

beforeAll(async () => {
  chat = await startChatServer(() => ({ text: 'Fine.' }));
  agentDir = copyExample('demo');
  serve = await startServe(agentDir, ['--model', 'openai-compatible:test', '--base-url', chat.url, '--token', TOKEN, '--max-message-chars', '100']);
});

afterAll(async () => {
  serve.signal('SIGTERM');
  expect(await serve.exited).toBe(0);
  await chat.close();
});

async function refusal(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error?: unknown };
  expect(body).toEqual({ error: expect.any(String) });
  return String(body.error);
}

describe('auggy serve refuses bad requests before any stream opens', () => {
  it('GET /health answers without a token', async () => {
    const response = await fetch(`${serve.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'healthy' });
  });

  it('a missing or wrong token: 401 on /agent/run and /admin', async () => {
    expect(await refusal(await postRun(serve.url, runInput('t-auth', 'hi')), 401)).toMatch(/Bearer/);
    const wrong = await postRun(serve.url, runInput('t-auth', 'hi'), { headers: { authorization: 'Bearer nope' } });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await refusal(wrong, 401)).toMatch(/wrong/);
    expect(await refusal(await fetch(`${serve.url}/admin`), 401)).toMatch(/Bearer/);
    expect(chat.requests).toHaveLength(0);
  });

  it('GET /admin with the token is the auggy admin report as JSON', async () => {
    const response = await fetch(`${serve.url}/admin`, { headers: auth });
    expect(response.status).toBe(200);
    const cli = await execa('node', [AUGGY_BIN, 'admin', agentDir, '--json']);
    expect(await response.json()).toEqual(JSON.parse(cli.stdout));
  });

  it('an unknown route is 404, a known one with the wrong method 405', async () => {
    expect(await refusal(await fetch(`${serve.url}/nowhere`, { headers: auth }), 404)).toMatch(/POST \/agent\/run/);
    const wrongMethod = await fetch(`${serve.url}/agent/run`, { headers: auth });
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    await refusal(wrongMethod, 405);
  });

  it('malformed JSON is 400', async () => {
    expect(await refusal(await postRun(serve.url, '{"threadId": "t1",', { headers: auth }), 400)).toMatch(/not valid JSON/);
    expect(await refusal(await postRun(serve.url, '', { headers: auth }), 400)).toMatch(/empty/);
  });

  it('a body that is not RunAgentInput is 400 naming the field', async () => {
    const { runId: _dropped, ...noRunId } = runInput('t-shape', 'hi');
    expect(await refusal(await postRun(serve.url, noRunId, { headers: auth }), 400)).toMatch(/runId is missing/);
    expect(await refusal(await postRun(serve.url, { ...runInput('t-shape', 'hi'), threadId: 7 }, { headers: auth }), 400)).toMatch(/threadId: expected string/);
    const badRole = { ...runInput('t-shape', 'hi'), messages: [{ id: 'm1', role: 'robot', content: 'hi' }] };
    expect(await refusal(await postRun(serve.url, badRole, { headers: auth }), 400)).toMatch(/messages\[0\]\.role/);
    expect(await refusal(await postRun(serve.url, [1, 2], { headers: auth }), 400)).toMatch(/RunAgentInput/);
  });

  it('no user message is 400', async () => {
    const onlyAssistant = { ...runInput('t-nouser', 'x'), messages: [{ id: 'm1', role: 'assistant', content: 'hello' }] };
    expect(await refusal(await postRun(serve.url, onlyAssistant, { headers: auth }), 400)).toMatch(/no user message/);
    expect(await refusal(await postRun(serve.url, { ...runInput('t-nouser', 'x'), messages: [] }, { headers: auth }), 400)).toMatch(/no user message/);
  });

  it('a message over --max-message-chars is 413', async () => {
    expect(await refusal(await postRun(serve.url, runInput('t-long', 'x'.repeat(101)), { headers: auth }), 413)).toMatch(/101 characters.*at most 100/);
  });

  it('path-like and over-long thread ids are 400 and never reach the disk', async () => {
    const before = treeSnapshot(agentDir);
    for (const threadId of ['../../escape', '/etc/passwd', 'a/b', '.hidden', 'x'.repeat(129), '']) {
      expect(await refusal(await postRun(serve.url, runInput(threadId, 'hi'), { headers: auth }), 400)).toMatch(/threadId/);
    }
    expect(treeSnapshot(agentDir)).toEqual(before);
    expect(chat.requests).toHaveLength(0);
  });

  it('after all that, a good request on the same server still runs', async () => {
    const input = runInput('t-good', 'hi');
    const response = await postRun(serve.url, input, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    checkRunSequence(events, input);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
  });
});

describe('auggy serve refuses to start unsafely', () => {
  it('a non-loopback host without a token: exit 2, nothing bound', async () => {
    const result = await serveRefusal([copyExample('demo'), '--host', '0.0.0.0', '--port', '0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--host 0\.0\.0\.0 .*token/);
    expect(result.stdout).not.toMatch(/listening/);
  });

  it('bad option values and folders: exit 2 with one line', async () => {
    const badPort = await serveRefusal([copyExample('demo'), '--port', '99999']);
    expect(badPort.exitCode).toBe(2);
    expect(badPort.stderr).toMatch(/--port 99999/);
    const badChars = await serveRefusal([copyExample('demo'), '--max-message-chars', '0']);
    expect(badChars.exitCode).toBe(2);
    const missing = await serveRefusal([`${copyExample('demo')}-missing`]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/-missing does not exist; pass an agent folder/);
    const noAgent = await serveRefusal([mkdtempSync(join(tmpdir(), 'auggy-not-an-agent-'))]);
    expect(noAgent.exitCode).toBe(2);
    expect(noAgent.stderr).toMatch(/no agent\.yaml/);
    const taken = new URL(chat.url).port;
    const inUse = await serveRefusal([copyExample('demo'), '--port', taken]);
    expect(inUse.exitCode).toBe(2);
    expect(inUse.stderr).toMatch(/already in use/);
    expect(`${badPort.stderr}${noAgent.stderr}${inUse.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('AUGGY_TOKEN protects the routes like --token', async () => {
    const server = await startServe(copyExample('demo'), [], { AUGGY_TOKEN: 'from-env' });
    try {
      expect((await fetch(`${server.url}/admin`)).status).toBe(401);
      expect((await fetch(`${server.url}/admin`, { headers: { authorization: 'Bearer from-env' } })).status).toBe(200);
    } finally {
      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});

describe('auggy serve --cors-origin', () => {
  it('answers preflight and labels every response, refusals included, for that origin', async () => {
    const origin = 'https://app.example';
    const server = await startServe(copyExample('demo'), ['--cors-origin', origin, '--token', TOKEN]);
    try {
      const preflight = await fetch(`${server.url}/agent/run`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      const health = await fetch(`${server.url}/health`, { headers: { origin } });
      expect(health.headers.get('access-control-allow-origin')).toBe(origin);
      const unauthorized = await postRun(server.url, runInput('t-cors', 'hi'), { headers: { origin } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe(origin);
    } finally {
      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
