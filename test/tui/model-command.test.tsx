import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { folderOf } from '../helpers/session-folder.js';
import { KEY, frameWith, openChat } from './chat-harness.js';

// Registered before the cleanup below, so it runs after it: the chat is unmounted before its server closes.
const startServer = chatServersPerTest();
afterEach(() => {
  cleanup();
});

/** An agent on the loopback server's model `first`, as agent.yaml names it (no --model flag). */
function loopbackAgent(url: string): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: first\n  baseURL: ${url}\n` });
}

function records(dir: string): { name: string; data: Record<string, unknown> }[] {
  return readFileSync(join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; name: string; data: Record<string, unknown> })
    .filter((entry) => entry.kind === 'record');
}

describe('/model', () => {
  it('alone, shows the model in use', async () => {
    const server = await startServer([]);
    const chat = await openChat(loopbackAgent(server.url));
    chat.write('/model', KEY.enter);
    await frameWith(chat.lastFrame, 'model openai-compatible:first · /model provider:model switches it for the rest of this session');
  });

  it('a spec that cannot be used is one sentence, and the model stays', async () => {
    const server = await startServer([{ text: 'Still on the first.' }]);
    const chat = await openChat(loopbackAgent(server.url));
    chat.write('/model opneai-compatible:second', KEY.enter);
    const frame = (await frameWith(chat.lastFrame, 'openai-compatible:first\n')).replace(/\s+/g, ' ');
    expect(frame).toContain('"opneai-compatible:second" must be provider:model');
    expect(frame).toContain('did you mean openai-compatible:second?; the model stays openai-compatible:first');
    chat.write('hi', KEY.enter);
    await frameWith(chat.lastFrame, 'Still on the first.');
    expect(server.requests.map((request) => request.body.model)).toEqual(['first']);
  });

  it('switches the model for the rest of the session, says so, and a resumed session keeps it', async () => {
    const server = await startServer([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    const dir = loopbackAgent(server.url);
    const chat = await openChat(dir);
    chat.write('hi', KEY.enter);
    await frameWith(chat.lastFrame, '✓ completed');
    chat.write('/model openai-compatible:second', KEY.enter);
    await frameWith(chat.lastFrame, (frame) =>
      frame.replace(/\s+/g, ' ').includes('model: openai-compatible:second from here on in this session (was openai-compatible:first)'),
    );
    expect(chat.conversation.modelSpec.model).toBe('second');
    chat.write('and now', KEY.enter);
    await frameWith(chat.lastFrame, 'Two.');
    expect(server.requests.map((request) => request.body.model)).toEqual(['first', 'second']);
    const sessionDir = folderOf(chat.conversation.session);
    expect(records(sessionDir).find((record) => record.name === 'model')?.data).toEqual({ model: 'openai-compatible:second', was: 'openai-compatible:first' });
    chat.unmount();

    const resumed = await openChat(dir, { choice: { continueLatest: true } });
    expect(resumed.conversation.modelSpec.model).toBe('second');
    // The transcript says it again, as it said it live.
    expect(resumed.lastFrame().replace(/\s+/g, ' ')).toContain('model: openai-compatible:second from here on in this session');
    resumed.write('once more', KEY.enter);
    await frameWith(resumed.lastFrame, 'Three.');
    expect(server.requests.map((request) => request.body.model)).toEqual(['first', 'second', 'second']);
  });

  it('a --model flag at resume wins over the model the session switched to', async () => {
    const server = await startServer([{ text: 'One.' }, { text: 'Two.' }]);
    const dir = loopbackAgent(server.url);
    const chat = await openChat(dir);
    chat.write('/model openai-compatible:second', KEY.enter);
    await frameWith(chat.lastFrame, 'from here on in this session');
    chat.unmount();
    const resumed = await openChat(dir, { choice: { continueLatest: true }, overrides: { model: 'openai-compatible:third', baseURL: server.url } });
    expect(resumed.conversation.modelSpec.model).toBe('third');
  });
});
