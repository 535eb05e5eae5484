import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { HttpAgent, type Message } from '@ag-ui/client';
import { copyExample } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { checkRunSequence, postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { ServeScope, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { treeSnapshot } from '../helpers/temp-dir.js';

const APP_ORIGIN = 'http://localhost:5173';

let chat: ChatServer;
let serve: ServeProcess;
let agentDir: string;

beforeAll(async () => {
  chat = await startChatServer(() => ({ text: 'Fine.' }));
  agentDir = copyExample('demo');
  serve = await startServe(agentDir, [
    '--model',
    'openai-compatible:test',
    '--base-url',
    chat.url,
    '--cors-origin',
    APP_ORIGIN,
    '--allowed-host',
    'agents.internal',
  ]);
});

afterAll(async () => {
  serve.signal('SIGTERM');
  expect(await serve.exited).toBe(0);
  await chat.close();
});

async function refusal(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error?: unknown };
  expect(body).toEqual({ error: expect.any(String) });
  return String(body.error);
}

/** A request with a Host header of our choosing (fetch always sends the real one). */
function withHost(host: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, serve.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('auggy serve cannot be driven by a web page the user happens to open', () => {
  it('a POST /agent/run that is not application/json is 415, before the body is read or anything runs', async () => {
    const before = treeSnapshot(agentDir);
    const requests = chat.requests.length;
    const body = JSON.stringify(runInput('t-plain', 'hi'));
    const plain = await fetch(`${serve.url}/agent/run`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(await refusal(plain, 415)).toBe('Content-Type text/plain is not accepted here; send the RunAgentInput with Content-Type: application/json');
    const form = await fetch(`${serve.url}/agent/run`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    await refusal(form, 415);
    expect(chat.requests.length).toBe(requests);
    expect(treeSnapshot(agentDir)).toEqual(before);
    const json = await postRun(serve.url, runInput('t-plain', 'hi'), { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(json.status).toBe(200);
    await readEvents(json);
  });

  it("a foreign Origin is 403 on every route; the server's own origin passes", async () => {
    const evil = { origin: 'https://evil.example' };
    const requests = chat.requests.length;
    expect(await refusal(await postRun(serve.url, runInput('t-origin', 'hi'), { headers: evil }), 403)).toBe(
      'requests from origin "https://evil.example" are not allowed; start the server with --cors-origin https://evil.example to let that web app call it',
    );
    const admin = await fetch(`${serve.url}/admin`, { headers: evil });
    await refusal(admin, 403);
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refusal(await fetch(`${serve.url}/health`, { headers: { origin: 'null' } }), 403)).toMatch(/origin "null"/);
    expect(chat.requests.length).toBe(requests);
    expect((await fetch(`${serve.url}/health`, { headers: { origin: serve.url } })).status).toBe(200);
  });

  it('a Host that is not the bound address, localhost or an --allowed-host name is 403 (DNS rebinding)', async () => {
    const port = new URL(serve.url).port;
    const rebound = await withHost(`evil.example:${port}`, '/admin');
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({
      error: `Host "evil.example:${port}" is not this server; call it by its address or localhost, or start it with --allowed-host <name>`,
    });
    expect((await withHost(`attacker.localhost.evil.example:${port}`, '/agent/run')).status).toBe(403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `agents.internal:${port}`, 'AGENTS.internal']) {
      expect((await withHost(host, '/health')).status).toBe(200);
    }
  });

  it('a listed origin gets its CORS preflight answered; a foreign one does not', async () => {
    const preflight = await fetch(`${serve.url}/agent/run`, {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/);
    expect(preflight.headers.get('vary')).toMatch(/Origin/);
    const foreign = await fetch(`${serve.url}/agent/run`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6666', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the real @ag-ui/client runs from the listed origin, and is refused from another', async () => {
    const seen: Headers[] = [];
    const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      seen.push(response.headers);
      return response;
    };
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, headers: { Origin: APP_ORIGIN }, fetch: recordingFetch, threadId: `t-${randomUUID()}` });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'hello from the web app' } satisfies Message);
    const events: { type: string }[] = [];
    await agent.runAgent({ runId: `run-${randomUUID()}` }, { onEvent: ({ event }) => void events.push(event) });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(seen[0]?.get('access-control-allow-origin')).toBe(APP_ORIGIN);

    const outsider = new HttpAgent({ url: `${serve.url}/agent/run`, headers: { Origin: 'https://evil.example' }, threadId: `t-${randomUUID()}` });
    outsider.addMessage({ id: randomUUID(), role: 'user', content: 'hello from elsewhere' } satisfies Message);
    // The client prints a failed run to the console before it throws; the test reads the error instead.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = await outsider.runAgent({ runId: `run-${randomUUID()}` }).then(
      () => undefined,
      (error: unknown) => error,
    );
    quiet.mockRestore();
    expect(String(failure)).toMatch(/HTTP 403: .*not allowed/);
  });
});

describe('auggy serve during the SIGTERM grace period', () => {
  const scope = new ServeScope();
  afterEach(() => scope.stop());

  it('a new run gets 503 with Retry-After while the one in flight finishes; then exit 0', async () => {
    const { serve: draining, chat: model } = await scope.start(
      copyExample('demo'),
      (request) => (String(request.body.messages.at(-1)?.content).includes('hold') ? { text: 'Slow answer.', hold: true } : { text: 'Quick.' }),
      ['--grace-ms', '600000'],
    );
    const heldInput = runInput('t-held', 'hold on');
    const held = await postRun(draining.url, heldInput);
    expect(held.status).toBe(200);
    await model.held();
    draining.signal('SIGTERM');
    await draining.waitForStderr(/shutting down: 1 run\(s\) in flight/);

    const refused = await postRun(draining.url, runInput('t-new', 'hello'));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: 'the server is shutting down; try again shortly' });
    const health = await fetch(`${draining.url}/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).not.toBeNull();
    expect(model.requests).toHaveLength(1);

    model.release();
    const events = await readEvents(held);
    checkRunSequence(events, heldInput);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(await draining.exited).toBe(0);
  });
});
