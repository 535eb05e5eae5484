import { afterEach, describe, expect, it } from 'vitest';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { KEY, frameWith, openChat, type ChatHarness } from './chat-harness.js';

// Registered before the unmount below, so it runs after it: the chat is gone before its server closes.
const startServer = chatServersPerTest();
let chat: ChatHarness | undefined;
afterEach(() => {
  chat?.unmount();
  chat = undefined;
});

function agentFor(url: string, engineExtra: string): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n${engineExtra}` });
}

describe('the chat when the model server misbehaves', () => {
  it('a reply stopped at the output limit is kept, and the chat says where it was cut', async () => {
    const server = await startServer([{ text: 'The first half of', finishReason: 'length' }]);
    chat = await openChat(agentFor(server.url, '  maxTokens: 32\n'));
    chat.write('tell me everything', KEY.enter);
    const frame = await frameWith(chat.lastFrame, 'the reply was cut at the output limit (engine.maxTokens 32)');
    expect(frame).toContain('The first half of');
    expect(server.requests[0].body.max_tokens).toBe(32);
  });

  it('a silent server fails the turn after engine.timeoutSeconds, in one sentence', async () => {
    const server = await startServer([{ silent: true }]);
    chat = await openChat(agentFor(server.url, '  timeoutSeconds: 1\n'));
    chat.write('hello', KEY.enter);
    const frame = await frameWith(chat.lastFrame, (f) =>
      /no response from openai-compatible:test for 1 s; the server may be busy; raise\s+engine\.timeoutSeconds/.test(f.replace(/\s*\n\s*/g, ' ')),
    );
    expect(frame).toMatch(/failed/);
    expect(server.requests).toHaveLength(1);
  });
});
