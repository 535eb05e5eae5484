import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '@a2a-js/sdk';
import { copyExample } from '../helpers/agent-fixture.js';
import { a2aClient, sendTask, stateOf, statusText, userMessage } from '../helpers/a2a-client.js';
import { PNG_BYTES, PNG_DATA_URL, imageUrlsOfLastUserMessage, textOfLastUserMessage } from '../helpers/images.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

function withParts(text: string, parts: Part[]) {
  const request = userMessage(text);
  request.message?.parts.push(...parts);
  return request;
}

describe('auggy serve takes A2A file parts as images', () => {
  it('a raw image part and a data-URL part reach the model as image_url parts', async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), [{ text: 'Two dots.' }]);
    const client = await a2aClient(serve.url);
    const task = await sendTask(
      client,
      withParts('compare these', [
        { content: { $case: 'raw', value: PNG_BYTES }, mediaType: 'image/png', filename: 'a.png', metadata: undefined },
        { content: { $case: 'url', value: PNG_DATA_URL }, mediaType: 'image/png', filename: 'b.png', metadata: undefined },
      ]),
    );
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    const [request] = chat.requests;
    expect(textOfLastUserMessage(request)).toBe('compare these');
    expect(imageUrlsOfLastUserMessage(request)).toEqual([PNG_DATA_URL, PNG_DATA_URL]);
  });

  it('a file part that is not an image is refused in one sentence and calls no model', async () => {
    const { serve, chat } = await scope.start(copyExample('demo'), []);
    const client = await a2aClient(serve.url);
    const task = await sendTask(
      client,
      withParts('read this', [
        { content: { $case: 'raw', value: Buffer.from('%PDF-1.7') }, mediaType: 'application/pdf', filename: 'doc.pdf', metadata: undefined },
      ]),
    );
    expect(stateOf(task)).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toBe('part 2 of the message (doc.pdf) is application/pdf, not an image; auggy takes text and images only');
    expect(chat.requests).toHaveLength(0);
  });
});
