import { afterEach, describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

describe('the routes the Console reads', () => {
  it('serves the page and its assets from disk with a strict Content-Security-Policy, and nothing else under /console', async () => {
    const serve = scope.adopt(await startServe(copyExample('demo')));
    for (const path of ['/', '/console']) {
      const page = await fetch(`${serve.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
      expect(await page.text()).toContain('<script type="module" src="/console/console.js"></script>');
    }
    const script = await fetch(`${serve.url}/console/console.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${serve.url}/console/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${serve.url}/console/missing.js`)).status).toBe(404);
    const post = await fetch(`${serve.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ error: '/ takes GET, not POST' });
  });

  it('lists threads newest first and gives one thread as its events, state and open interrupts', async () => {
    const serve = scope.adopt(await startServe(copyExample('demo')));
    expect(await (await fetch(`${serve.url}/agent/threads`)).json()).toEqual({ threads: [] });
    await readEvents(await postRun(serve.url, runInput('first', 'hello')));
    await readEvents(await postRun(serve.url, { ...runInput('second', 'deploy the api'), protocolVersion: '1.0.0' }));
    const { threads } = (await (await fetch(`${serve.url}/agent/threads`)).json()) as { threads: { threadId: string; ended: string }[] };
    expect(threads.map((thread) => [thread.threadId, thread.ended])).toEqual([
      ['second', 'input-required'],
      ['first', 'completed'],
    ]);
    const detail = (await (await fetch(`${serve.url}/agent/thread?threadId=second`)).json()) as {
      events: { type: string; role?: string; delta?: string }[];
      state: { board?: Record<string, { text: string }>; ask?: { text: string } };
      interrupts: { reason: string; message: string }[];
    };
    expect(detail.events[0]).toMatchObject({ type: 'TEXT_MESSAGE_START', role: 'user' });
    expect(detail.events[1]).toMatchObject({ type: 'TEXT_MESSAGE_CONTENT', delta: 'deploy the api' });
    expect(detail.events.map((event) => event.type)).toContain('RUN_FINISHED');
    expect(detail.state.board?.progress.text).toBe('deploy: waiting to hear which service');
    expect(detail.state.ask?.text).toBe('deploy the api');
    const command = await fetch(`${serve.url}/agent/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 'second', command: '/nope' }),
    });
    expect(command.status).toBe(404);
    expect(((await command.json()) as { error: string }).error).toMatch(/^this agent has no command \/nope; its commands are \/ask/);
    expect(detail.interrupts).toEqual([expect.objectContaining({ reason: 'input_required', message: expect.stringContaining('api-west or api-east') })]);
  });

  it('refuses a malformed or unknown thread in one sentence, and wants the token the other routes want', async () => {
    const serve = scope.adopt(await startServe(copyExample('demo'), [], { AUGGY_TOKEN: 'routes-secret' }));
    const auth = { authorization: 'Bearer routes-secret' };
    const bad = await fetch(`${serve.url}/agent/thread?threadId=..%2Fetc`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^threadId must name a thread/);
    const unknown = await fetch(`${serve.url}/agent/thread?threadId=never`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'no thread never yet; a thread begins with its first POST /agent/run' });
    // Every route beside a run refuses a thread with no session the same way, and makes none.
    const post = (route: string, body: Record<string, unknown>) =>
      fetch(`${serve.url}${route}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 'never', ...body }),
      });
    for (const refused of [
      await post('/agent/command', { command: '/ask' }),
      await post('/agent/command', { command: '/compact' }),
      await post('/agent/board', { lines: { progress: 'deploying' } }),
    ]) {
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ error: 'no thread never yet; a thread begins with its first POST /agent/run' });
    }
    const attachment = await fetch(`${serve.url}/agent/attachment?threadId=never&id=${'0'.repeat(32)}`, { headers: auth });
    expect(attachment.status).toBe(404);
    expect(await attachment.json()).toEqual({ error: 'no thread never yet; it has no attachments' });
    expect((await fetch(`${serve.url}/agent/threads`)).status).toBe(401);
    expect((await fetch(`${serve.url}/agent/thread?threadId=never`)).status).toBe(401);
    expect((await fetch(`${serve.url}/agent/threads`, { headers: auth })).status).toBe(200);
    // The page itself holds nothing secret: it loads, then asks for the token.
    expect((await fetch(`${serve.url}/`)).status).toBe(200);
    // A foreign page's request is refused before any route.
    expect((await fetch(`${serve.url}/agent/threads`, { headers: { ...auth, origin: 'https://elsewhere.example' } })).status).toBe(403);
  });
});
