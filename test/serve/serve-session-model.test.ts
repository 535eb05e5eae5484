import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { a2aClient, sendTask, stateOf, userMessage } from '../helpers/a2a-client.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { KEY, frameWith, openChat } from '../tui/chat-harness.js';
import { postRun, runInput } from '../helpers/agui-events.js';

let serve: ServeProcess | undefined;
let chat: ChatServer | undefined;

afterEach(async () => {
  cleanup();
  serve?.signal('SIGKILL');
  await serve?.exited;
  await chat?.close();
  serve = undefined;
  chat = undefined;
});

/** A session that switched to the loopback server's model `second` with /model in the chat; agent.yaml names `first`. */
async function switchedSession(url: string): Promise<{ dir: string; sessionId: string }> {
  const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: first\n  baseURL: ${url}\n` });
  const session = await openChat(dir);
  session.write('/model openai-compatible:second', KEY.enter);
  await frameWith(session.lastFrame, (frame) => frame.replace(/\s+/g, ' ').includes('model: openai-compatible:second from here on in this session'));
  const sessionId = session.conversation.session.id;
  session.unmount();
  return { dir, sessionId };
}

describe("serve keeps a session's /model choice", () => {
  it('an AG-UI run and an A2A task on the thread use the model the session switched to', async () => {
    chat = await startChatServer([{ text: 'From AG-UI.' }, { text: 'From A2A.' }]);
    const { dir, sessionId } = await switchedSession(chat.url);
    serve = await startServe(dir);
    const run = await postRun(serve.url, runInput(sessionId, 'hi'));
    expect(run.status).toBe(200);
    expect(await run.text()).toContain('RUN_FINISHED');
    const task = await sendTask(await a2aClient(serve.url), userMessage('and now', { contextId: sessionId }));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(chat.requests.map((request) => request.body.model)).toEqual(['second', 'second']);
  });
});
