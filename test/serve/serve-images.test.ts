import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent, type Message } from '@ag-ui/client';
import { copyExample } from '../helpers/agent-fixture.js';
import { validateEach } from '../helpers/agui-events.js';
import { PNG_BASE64, PNG_DATA_URL, imageUrlsOfLastUserMessage, textOfLastUserMessage } from '../helpers/images.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

async function run(agent: HttpAgent): Promise<{ events: BaseEvent[]; failure?: Error }> {
  const events: BaseEvent[] = [];
  try {
    await agent.runAgent({ runId: `run-${randomUUID()}` }, { onEvent: ({ event }) => void events.push(event) });
    return { events };
  } catch (error) {
    return { events, failure: error instanceof Error ? error : new Error(String(error)) };
  }
}

describe('auggy serve takes AG-UI image parts', () => {
  it("an image part's data reaches the model as an image_url, and the thread's next run sends it again", async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), [{ text: 'A dot.' }, { text: 'Yes, the same dot.' }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({
      id: randomUUID(),
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { type: 'data', value: PNG_BASE64, mimeType: 'image/png' } },
      ],
    } satisfies Message);
    const first = await run(agent);
    expect(first.failure).toBeUndefined();
    validateEach(first.events);
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(textOfLastUserMessage(chat.requests[0])).toBe('what is this?');
    expect(imageUrlsOfLastUserMessage(chat.requests[0])).toEqual([PNG_DATA_URL]);

    // The client sends the whole thread again, the image within --max-message-chars' reach.
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'is it the same one?' } satisfies Message);
    const second = await run(agent);
    expect(second.failure).toBeUndefined();
    const firstUser = chat.requests[1].body.messages.find((message) => message.role === 'user');
    expect(firstUser?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: PNG_DATA_URL } },
    ]);
  });

  it('an image part that is not an image is refused with a 400 naming the part', async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), []);
    const response = await fetch(`${serve.url}/agent/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId: 'images-1',
        runId: 'run-1',
        messages: [
          {
            id: 'm1',
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image', source: { type: 'data', value: Buffer.from('not an image').toString('base64'), mimeType: 'image/png' } },
            ],
          },
        ],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('messages[0].content[1] is not a PNG, JPEG, GIF or WebP image');
    expect(chat.requests).toHaveLength(0);
  });
});
