import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { AcpAgentProcess } from '../helpers/acp-agent-process.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { PNG_BASE64, PNG_DATA_URL, imageUrlsOfLastUserMessage, textOfLastUserMessage } from '../helpers/images.js';

let chat: ChatServer;
let acp: AcpAgentProcess;
const dir = makeAgentFolder();

beforeAll(async () => {
  chat = await startChatServer(() => ({ text: 'I see a dot.' }));
  acp = AcpAgentProcess.start(dir, { args: ['--model', 'openai-compatible:test', '--base-url', chat.url] });
});

afterAll(async () => {
  expect(await acp.stop()).toBe(0);
  await chat.close();
});

describe('auggy acp takes image prompt content', () => {
  it('advertises promptCapabilities.image, sends the image block as an image_url, and session/load replays it', async () => {
    const init = await acp.initialize({});
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    const sessionId = await acp.newSession(dir);
    const response = await acp.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'what is in the picture?' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      ],
    });
    expect(response.stopReason).toBe('end_turn');
    const request = chat.requests.at(-1);
    if (!request) throw new Error('no request reached the model');
    expect(textOfLastUserMessage(request)).toBe('what is in the picture?');
    expect(imageUrlsOfLastUserMessage(request)).toEqual([PNG_DATA_URL]);

    const from = acp.notifications.length;
    await acp.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    const replayed = acp.updates(sessionId, from).filter((update) => update.sessionUpdate === 'user_message_chunk');
    expect(replayed.map((update) => update.content)).toEqual([
      { type: 'text', text: 'what is in the picture?' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
    ]);
  });

  it('an image block that is not an image is refused as invalid params in one sentence', async () => {
    const sessionId = await acp.newSession(dir);
    const before = chat.requests.length;
    const refused = acp.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'look' },
        { type: 'image', data: Buffer.from('plain words').toString('base64'), mimeType: 'image/png' },
      ],
    });
    await expect(refused).rejects.toMatchObject({
      code: -32602,
      message: 'the image in prompt block 2 is not a PNG, JPEG, GIF or WebP image; those are the images auggy sends to a model',
    });
    expect(chat.requests.length).toBe(before);
  });
});
