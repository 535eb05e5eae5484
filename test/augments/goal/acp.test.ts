import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { AcpAgentProcess, nonJsonRpcLines } from '../../helpers/acp-agent-process.js';
import { startChatServer, type ChatReply, type ChatServer, type ReceivedRequest } from '../../helpers/chat-server.js';
import { goalFolder, isGoalEvaluator, model, verdict } from './goal-model.js';

// One editor and one model server for every test; each test says how the model behaves.
let answer: (request: ReceivedRequest) => ChatReply = () => ({ text: 'unset' });
let chat: ChatServer;
let acp: AcpAgentProcess;
const dir = goalFolder(undefined, ['turnControl', 'questions', 'goal']);

beforeAll(async () => {
  chat = await startChatServer((request) => answer(request));
  acp = AcpAgentProcess.start(dir, { args: ['--model', 'openai-compatible:test', '--base-url', chat.url] });
  await acp.initialize();
});

afterAll(async () => {
  expect(await acp.stop()).toBe(0);
  await chat.close();
  expect(nonJsonRpcLines(acp.stdout)).toEqual([]);
});

const STEPS = [verdict(false, 'Step one is done; two and three remain.'), verdict(false, 'Step three remains.'), verdict(true, 'All three steps are done.')];

/** The updates as short marks, in order: each message (its chunks joined), each thought, each tool call. */
function marks(updates: SessionUpdate[]): string[] {
  const found: string[] = [];
  let message: string | null | undefined;
  for (const update of updates) {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      const id = update.messageId ?? null;
      if (message === id) found[found.length - 1] += update.content.text;
      else found.push(`say ${update.content.text}`);
      message = id;
      continue;
    }
    if (update.sessionUpdate === 'agent_thought_chunk' && update.content.type === 'text') found.push(`think ${update.content.text}`);
    else if (update.sessionUpdate === 'tool_call') found.push(`tool ${update.title}`);
    else continue;
    message = undefined;
  }
  return found.map((mark) => mark.trim());
}

function goalFile(sessionId: string): { status: string; note: string | null; turns: number } {
  return JSON.parse(readFileSync(join(dir, '.auggy', 'sessions', sessionId, 'goal.json'), 'utf8')) as { status: string; note: string | null; turns: number };
}

describe('goal in an editor (auggy acp)', () => {
  it('one prompt holds the whole loop: every continued turn streams in it, each verdict a thought, and it ends once the goal is met', async () => {
    answer = model((turn) => ({ text: `Did step ${turn + 1}.` }), STEPS);
    const sessionId = await acp.newSession(dir);
    const from = acp.notifications.length;
    const response = await acp.prompt(sessionId, '/goal do the three steps');
    expect(response.stopReason).toBe('end_turn');
    expect(response._meta).toMatchObject({ auggy: { command: 'goal', turns: 3, goal: { status: 'achieved', met: true, turns: 3 } } });
    expect(marks(acp.updates(sessionId, from))).toEqual([
      expect.stringMatching(/^say Goal set: do the three steps/),
      'say Did step 1.',
      'think goal not met (turn 1 of 20): Step one is done; two and three remain.',
      'think ↻ goal: the agent keeps the floor for the next turn',
      'say Did step 2.',
      'think goal not met (turn 2 of 20): Step three remains.',
      'think ↻ goal: the agent keeps the floor for the next turn',
      'say Did step 3.',
      'think goal achieved: All three steps are done.',
    ]);
    expect(goalFile(sessionId).status).toBe('achieved');
  });

  it("a turn that asks the person ends the prompt waiting for them; the next prompt is the answer and carries the loop to the goal's end", async () => {
    answer = model(
      (turn) =>
        turn === 1
          ? { toolCalls: [{ name: 'request_input', args: { prompt: 'Which region: west or east?' } }] }
          : { text: turn === 0 ? 'Built.' : 'Deployed to west.' },
      [verdict(false, 'Built, not deployed yet.'), verdict(true, 'It is deployed to west.')],
    );
    const sessionId = await acp.newSession(dir);
    const asked = await acp.prompt(sessionId, '/goal deploy the service');
    expect(asked.stopReason).toBe('end_turn');
    expect(asked._meta).toMatchObject({ auggy: { status: 'input-required', question: 'Which region: west or east?', goal: { status: 'waiting', turns: 1 } } });
    expect(acp.thoughts(sessionId)).toContain('goal waiting: the agent asked you something; your answer resumes the goal');

    const from = acp.notifications.length;
    const done = await acp.prompt(sessionId, 'west');
    expect(done.stopReason).toBe('end_turn');
    expect(done._meta).toMatchObject({ auggy: { goal: { status: 'achieved', turns: 2 } } });
    expect(acp.replyText(sessionId, from)).toContain('Deployed to west.');
    expect(acp.thoughts(sessionId, from)).toContain('goal achieved: It is deployed to west.');
  });

  it("a questionnaire in a goal's turn is asked through elicitation/create within the prompt, and the answer carries the loop on", async () => {
    answer = (request) => {
      if (isGoalEvaluator(request))
        return JSON.stringify(request.body.messages).includes('staging') ? verdict(true, 'Deployed to staging.') : verdict(false, 'No environment chosen yet.');
      const last = request.body.messages.at(-1);
      if (last?.role === 'tool') return { text: `Deployed with ${String(last.content)}` };
      if (JSON.stringify(request.body.messages).includes('No environment chosen yet.'))
        return {
          toolCalls: [
            {
              name: 'ask_user',
              args: { prompt: 'Where to?', fields: [{ name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] }] },
            },
          ],
        };
      return { text: 'Built the image.' };
    };
    acp.person.elicit = () => ({ action: 'accept', content: { env: 'staging' } });
    const asks = acp.elicitations.length;
    const sessionId = await acp.newSession(dir);
    const response = await acp.prompt(sessionId, '/goal ship it');
    expect(acp.elicitations.length - asks).toBe(1);
    expect(response.stopReason).toBe('end_turn');
    expect(response._meta).toMatchObject({ auggy: { turns: 2, goal: { status: 'achieved', turns: 2, reason: 'Deployed to staging.' } } });
  });

  it('session/cancel during a goal turn ends the prompt cancelled and pauses the goal; /goal resume in a later prompt goes on', async () => {
    let held = true;
    answer = model(
      (turn) => (turn === 1 && held ? { text: 'Working on part two', hold: true } : { text: `Part ${turn + 1} done.` }),
      [verdict(false, 'Part two is missing.'), verdict(true, 'Every part is done.')],
    );
    const sessionId = await acp.newSession(dir);
    const from = acp.notifications.length;
    const running = acp.prompt(sessionId, '/goal finish both parts');
    await chat.held();
    await acp.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text.includes('Working'),
      from,
    );
    await acp.agent.notify('session/cancel', { sessionId });
    const canceled = await running;
    held = false;
    chat.release();
    expect(canceled.stopReason).toBe('cancelled');
    expect(goalFile(sessionId)).toMatchObject({ status: 'paused', note: 'goal paused: the turn was canceled; /goal resume goes on' });
    expect(acp.thoughts(sessionId, from)).toContain('goal paused: the turn was canceled; /goal resume goes on');

    const resumed = await acp.prompt(sessionId, '/goal resume');
    expect(resumed._meta).toMatchObject({ auggy: { command: 'goal', goal: { status: 'achieved', turns: 2 } } });
  });

  it("session/load replays a goal's continued turns as thoughts, never as the person's messages", async () => {
    answer = model((turn) => ({ text: `Did step ${turn + 1}.` }), STEPS);
    const sessionId = await acp.newSession(dir);
    await acp.prompt(sessionId, '/goal do the three steps');
    await acp.agent.request('session/close', { sessionId });
    const from = acp.notifications.length;
    await acp.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    const replayed = acp.updates(sessionId, from);
    const said = replayed.flatMap((u) => (u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' ? [u.content.text] : []));
    expect(said).toEqual(['do the three steps']);
    expect(acp.thoughts(sessionId, from).match(/↻ goal: the agent keeps the floor/g)).toHaveLength(2);
    expect(acp.thoughts(sessionId, from)).toContain('goal achieved: All three steps are done.');
  });
});
