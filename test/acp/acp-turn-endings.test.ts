import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '@agentclientprotocol/sdk';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { AcpAgentProcess, nonJsonRpcLines } from '../helpers/acp-agent-process.js';
import { startChatServer, type ChatReply, type ChatServer, type ReceivedRequest } from '../helpers/chat-server.js';

function lastUserText(request: ReceivedRequest): string {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** The model's reply is chosen by the person's message, so one server serves every test. */
function reply(request: ReceivedRequest): ChatReply {
  const text = lastUserText(request);
  const last = request.body.messages.at(-1);
  if (text.startsWith('survey') && last?.role === 'tool') return { text: `The form said: ${String(last.content)}` };
  if (text.startsWith('survey'))
    return { toolCalls: [{ name: 'ask_user', args: { prompt: 'A survey.', fields: [{ name: 'colour', question: 'Which colour?', type: 'text' }] } }] };
  if (text.startsWith('slow')) return { text: 'Thinking about a long answer', hold: true };
  if (text.startsWith('cut')) return { text: 'A reply that stops at the output', finishReason: 'length' };
  if (text.startsWith('broken')) return { status: 400, errorMessage: 'the model refused the request' };
  if (text.startsWith('loop')) return { toolCalls: [{ name: 'request_input', args: { prompt: '' } }] };
  return { text: 'Plain answer.' };
}

let chat: ChatServer;
let acp: AcpAgentProcess;
const dir = makeAgentFolder({
  augments: ['turnControl', 'questions'],
  maxInferenceLoops: 2,
  engine: 'engine:\n  provider: openai-compatible\n  model: test\n  baseURL: http://127.0.0.1:9/v1\n  maxContextTokens: 8000\n',
});

beforeAll(async () => {
  chat = await startChatServer(reply);
  acp = AcpAgentProcess.start(dir, { args: ['--model', 'openai-compatible:test', '--base-url', chat.url] });
  // An editor without forms: questionnaires get no answer at once.
  await acp.initialize({});
});

afterAll(async () => {
  expect(await acp.stop()).toBe(0);
  await chat.close();
});

describe('auggy acp: how turns end, in stop reasons', () => {
  it('session/cancel stops the turn at once as cancelled, and the partial reply is kept', async () => {
    const sessionId = await acp.newSession(dir);
    const turn = acp.prompt(sessionId, 'slow answer please');
    await chat.held();
    await acp.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    await acp.agent.notify('session/cancel', { sessionId });
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    chat.release();
    expect(acp.replyText(sessionId)).toContain('Thinking');
    // The next turn carries the partial reply in its history.
    await acp.prompt(sessionId, 'and now?');
    const history = chat.requests.at(-1)?.body.messages.map((m) => m.content);
    expect(JSON.stringify(history)).toContain('Thinking');
  });

  it('a reply cut at the output limit ends as max_tokens', async () => {
    const sessionId = await acp.newSession(dir);
    expect(await acp.prompt(sessionId, 'cut it short')).toMatchObject({ stopReason: 'max_tokens' });
  });

  it('a turn out of inference rounds ends as max_turn_requests', async () => {
    const sessionId = await acp.newSession(dir);
    const response = await acp.prompt(sessionId, 'loop until the budget runs out');
    expect(response.stopReason).toBe('max_turn_requests');
    expect(response._meta).toMatchObject({ auggy: { status: 'budget-exhausted' } });
  });

  it("a failed turn is a JSON-RPC error whose message is the turn's one sentence", async () => {
    const sessionId = await acp.newSession(dir);
    const failure = await acp.prompt(sessionId, 'broken request').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).message).toMatch(/refused the request/);
    expect((failure as RequestError).message).not.toMatch(/\n\s+at /);
  });

  it('a client without forms gets no answer to a questionnaire at once, as nobody', async () => {
    const sessionId = await acp.newSession(dir);
    const before = acp.elicitations.length;
    expect(await acp.prompt(sessionId, 'survey please')).toMatchObject({ stopReason: 'end_turn' });
    expect(acp.elicitations.length).toBe(before);
    expect(acp.replyText(sessionId)).toContain('"status":"no-answer","reason":"away"');
  });

  it("usage_update follows each model call with the context in use of the window, and the call's tokens", async () => {
    const sessionId = await acp.newSession(dir);
    await acp.prompt(sessionId, 'hello');
    const usage = acp.updates(sessionId).filter((u) => u.sessionUpdate === 'usage_update');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ size: 8000, _meta: { auggy: { inputTokens: 11, outputTokens: 7 } } });
    // The meter starts from the prompt tokens the server reported for the call.
    expect((usage[0] as { used: number }).used).toBeGreaterThanOrEqual(11);
  });

  it('stdout carries JSON-RPC messages and nothing else', () => {
    expect(nonJsonRpcLines(acp.stdout)).toEqual([]);
  });
});

describe('auggy acp without the key the agent needs', () => {
  it('initialize fails with an error naming the missing variable', async () => {
    const keyless = makeAgentFolder({ engine: 'engine:\n  provider: openai\n  model: gpt-5.4-mini\n' });
    const agent = AcpAgentProcess.start(keyless);
    const failure = await agent.initialize().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).code).toBe(-32000);
    expect((failure as RequestError).message).toContain('OPENAI_API_KEY is not set');
    expect(await agent.stop()).toBe(0);
    expect(nonJsonRpcLines(agent.stdout)).toEqual([]);
  });
});
