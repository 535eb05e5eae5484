import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type Message } from '@ag-ui/client';
import { copyExample } from '../helpers/agent-fixture.js';
import { PNG_BASE64, PNG_BYTES, PNG_DATA_URL } from '../helpers/images.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

const imagePart = (value = PNG_BASE64) => ({ type: 'image' as const, source: { type: 'data' as const, value, mimeType: 'image/png' } });

/** A client's thread so far: a question with an image and its answer, as a page holds them before this server saw any. */
function earlierMessages(): Message[] {
  return [
    { id: `u-${randomUUID()}`, role: 'user', content: [{ type: 'text', text: 'what is this?' }, imagePart()] },
    { id: `a-${randomUUID()}`, role: 'assistant', content: 'A dot.' },
  ];
}

function runBody(threadId: string, messages: unknown[]): string {
  return JSON.stringify({ threadId, runId: `run-${randomUUID()}`, messages, tools: [], context: [], state: {}, forwardedProps: {} });
}

async function postRun(url: string, body: string): Promise<Response> {
  return fetch(`${url}/agent/run`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body });
}

describe("auggy serve keeps the images of a client's history", () => {
  it("a new thread adopts the history's images as attachments, sends them to the model, and serves them back by id", async () => {
    const dir = copyExample('demo');
    const { serve, chat } = await scope.start(dir, [{ text: 'Still a dot.' }, { text: 'Yes.' }]);
    const threadId = `t-${randomUUID()}`;
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, threadId, initialMessages: earlierMessages() });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'and now?' } satisfies Message);
    await agent.runAgent({ runId: `run-${randomUUID()}` });

    const firstUser = chat.requests[0].body.messages.find((message) => message.role === 'user');
    expect(firstUser?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: PNG_DATA_URL } },
    ]);
    // Kept by reference: the log's line names the image, the bytes are a state beside it.
    const log = readFileSync(join(dir, '.auggy', 'sessions', threadId, 'events.jsonl'), 'utf8');
    expect(log).not.toContain(PNG_BASE64);
    const adopted = log
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { kind: string; text?: string; attachments?: { ref: string; mediaType: string; size: number }[] })
      .find((entry) => entry.kind === 'user' && entry.text === 'what is this?');
    expect(adopted?.attachments).toEqual([{ ref: expect.stringMatching(/^[0-9a-f]{32}$/), mediaType: 'image/png', size: PNG_BYTES.length }]);

    // The thread, as a page reads it after a reload, names the image; its bytes come from the attachment route.
    const thread = (await (await fetch(`${serve.url}/agent/thread?threadId=${threadId}`)).json()) as {
      events: { type: string; name?: string; value?: unknown }[];
    };
    const named = thread.events.find((event) => event.type === 'CUSTOM' && event.name === 'auggy.attachments');
    const ref = adopted?.attachments?.[0].ref ?? '';
    expect(named?.value).toMatchObject({ attachments: [{ id: ref, mediaType: 'image/png', size: PNG_BYTES.length }] });
    const image = await fetch(`${serve.url}/agent/attachment?threadId=${threadId}&id=${ref}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG_BYTES);

    // The next run knows those messages by id and sends the image from the session again.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'same?' } satisfies Message);
    await agent.runAgent({ runId: `run-${randomUUID()}` });
    expect(chat.requests[1].body.messages.filter((message) => Array.isArray(message.content))).toHaveLength(1);
    expect(serve.stderr()).toMatch(/adopted 2 message\(s\)/);
  });

  it('a history image is not counted against --max-message-chars, and one that is not an image is refused naming its part', async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), [{ text: 'Fine.' }], ['--max-message-chars', '300']);
    // A PNG with 3 KB after its end: still a PNG, its base64 ten times the limit.
    const padded = Buffer.concat([PNG_BYTES, Buffer.alloc(3000)]).toString('base64');
    const broken = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'look' }, imagePart(Buffer.from('not an image').toString('base64'))] },
      { id: 'u2', role: 'user', content: 'well?' },
    ];
    const refused = await postRun(serve.url, runBody('broken-history', broken));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('messages[0].content[1] is not a PNG, JPEG, GIF or WebP image');
    expect(chat.requests).toHaveLength(0);

    // The image's base64 alone is longer than the limit; its text is what the limit reads.
    const history = [
      { id: 'u3', role: 'user', content: [{ type: 'text', text: 'what is this?' }, imagePart(padded)] },
      { id: 'u4', role: 'user', content: 'well?' },
    ];
    const taken = await postRun(serve.url, runBody('long-history', history));
    expect(taken.status).toBe(200);
    await taken.text();
    expect(chat.requests).toHaveLength(1);
    expect(JSON.stringify(chat.requests[0].body.messages)).toContain(padded);
    const wordy = await postRun(
      serve.url,
      runBody('wordy-history', [
        { id: 'u5', role: 'user', content: [{ type: 'text', text: 'x'.repeat(400) }, imagePart()] },
        { id: 'u6', role: 'user', content: 'ok' },
      ]),
    );
    expect(wordy.status).toBe(413);
    expect(await wordy.text()).toContain('--max-message-chars');
  });

  it('a history whose images make the body larger than --max-body-mb is refused with 413, nothing adopted', async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), [{ text: 'Fine.' }], ['--max-body-mb', '1']);
    const large = Buffer.concat([PNG_BYTES, Buffer.alloc(900 * 1024)]).toString('base64');
    const refused = await postRun(
      serve.url,
      runBody('large-history', [
        { id: 'u1', role: 'user', content: [imagePart(large)] },
        { id: 'u2', role: 'user', content: 'and?' },
      ]),
    );
    expect(refused.status).toBe(413);
    expect(await refused.text()).toContain('--max-body-mb');
    expect(chat.requests).toHaveLength(0);
    const thread = await fetch(`${serve.url}/agent/thread?threadId=large-history`);
    expect(thread.status).toBe(404);
  });

  it('the attachment route takes only an id the thread names, behind the token, and not from another site', async () => {
    const { serve } = await scope.start(copyExample('demo'), [{ text: 'A dot.' }], ['--token', 'secret-token']);
    const auth = { authorization: 'Bearer secret-token' };
    const sent = await fetch(`${serve.url}/agent/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...auth },
      body: runBody('pictures', [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'what is this?' }, imagePart()] }]),
    });
    await sent.text();
    const thread = (await (await fetch(`${serve.url}/agent/thread?threadId=pictures`, { headers: auth })).json()) as {
      events: { name?: string; value?: { attachments: { id: string }[] } }[];
    };
    const id = thread.events.find((event) => event.name === 'auggy.attachments')?.value?.attachments[0].id ?? '';
    const route = `${serve.url}/agent/attachment?threadId=pictures&id=${id}`;
    expect((await fetch(route, { headers: auth })).status).toBe(200);
    expect((await fetch(route)).status).toBe(401);
    expect((await fetch(route, { headers: { ...auth, origin: 'https://elsewhere.example' } })).status).toBe(403);
    const unknown = await fetch(`${serve.url}/agent/attachment?threadId=pictures&id=${'0'.repeat(32)}`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('holds no attachment');
    expect((await fetch(`${serve.url}/agent/attachment?threadId=pictures&id=../x`, { headers: auth })).status).toBe(400);
  });
});
