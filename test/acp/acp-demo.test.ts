import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '@agentclientprotocol/sdk';
import { copyExample } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';
import { AcpAgentProcess, nonJsonRpcLines } from '../helpers/acp-agent-process.js';

// One `auggy acp` for the file, as an editor keeps one agent process for its sessions.
const dir = copyExample('demo');
let acp: AcpAgentProcess;

beforeAll(async () => {
  acp = AcpAgentProcess.start(dir);
  await acp.initialize();
});

afterAll(async () => {
  expect(await acp.stop()).toBe(0);
});

describe('auggy acp with the demo agent, through the ACP SDK client', () => {
  it('initialize says what auggy really has, with no auth methods when no key is needed', async () => {
    const init = await acp.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.authMethods).toEqual([]);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      mcpCapabilities: { http: true, sse: true },
      promptCapabilities: { embeddedContext: true, image: true, audio: false },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    });
  });

  it('a turn streams its reply, its tool calls from pending to completed, and the board as a plan', async () => {
    const from = acp.notifications.length;
    const sessionId = await acp.newSession(dir);
    const response = await acp.prompt(sessionId, 'hello');
    expect(response.stopReason).toBe('end_turn');
    expect(acp.replyText(sessionId, from)).toContain("Hello! I'm the demo agent.");
    const updates = acp.updates(sessionId, from);
    const call = updates.find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({ title: 'board_write', status: 'pending' });
    const statuses = updates.flatMap((u) => (u.sessionUpdate === 'tool_call_update' ? [u.status] : []));
    expect(statuses).toEqual(['in_progress', 'completed']);
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(JSON.stringify(done)).toContain('Line \\"progress\\" set');
    const plans = updates.filter((u) => u.sessionUpdate === 'plan');
    expect(plans.at(-1)).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ content: 'progress: ready: waiting for a request' })]) });
    expect(updates.some((u) => u.sessionUpdate === 'usage_update')).toBe(true);
    // The user ask's verdict reaches the editor too, as the agent's thought.
    expect(acp.thoughts(sessionId, from)).toContain('user ask achieved: The agent greeted you back.');
  });

  it('a question ends the turn as input-required, and the next prompt is its answer', async () => {
    const sessionId = await acp.newSession(dir);
    const asked = await acp.prompt(sessionId, 'deploy the api');
    expect(asked.stopReason).toBe('end_turn');
    expect(asked._meta).toMatchObject({ auggy: { status: 'input-required', question: 'Which production service should I deploy: api-west or api-east?' } });
    // request_input's call is the question itself: no tool line for it.
    expect(JSON.stringify(acp.updates(sessionId))).not.toContain('request_input');
    expect(acp.replyText(sessionId)).toMatch(/Which production service should I deploy: api-west or api-east\?$/);
    const from = acp.notifications.length;
    const answered = await acp.prompt(sessionId, 'api-west');
    expect(answered).toMatchObject({ stopReason: 'end_turn' });
    expect(answered._meta).toBeUndefined();
    expect(acp.replyText(sessionId, from)).toContain('Deploying that service now');
  });

  it('a questionnaire is one elicitation form; a refused field is asked again with the reason, and the turn goes on', async () => {
    const sessionId = await acp.newSession(dir);
    let asked = 0;
    acp.person.elicit = () => {
      asked++;
      // The first time, a replica count that is no number; the second, only that field again.
      if (asked === 1) return { action: 'accept', content: { environment: 'production', replicas: 'lots', regions: 'eu-west, us-east' } };
      return { action: 'accept', content: { replicas: 3 } };
    };
    const before = acp.elicitations.length;
    const response = await acp.prompt(sessionId, 'plan the release');
    expect(response.stopReason).toBe('end_turn');
    const forms = acp.elicitations.slice(before);
    expect(forms).toHaveLength(2);
    const [first, second] = forms;
    expect(first).toMatchObject({ mode: 'form', sessionId, message: 'Planning the release.' });
    const schema = (first as { requestedSchema: { properties: Record<string, { title?: string; type: string; enum?: string[] }> } }).requestedSchema;
    expect(schema.properties.environment).toMatchObject({ type: 'string', title: 'Which environment?', enum: ['staging', 'production'] });
    expect(schema.properties.replicas).toMatchObject({ type: 'integer', title: 'How many replicas?', default: 2 });
    expect(Object.keys((second as { requestedSchema: { properties: object } }).requestedSchema.properties)).toEqual(['replicas']);
    expect(second.message).toMatch(/Answer again: How many replicas\?: /);
    expect(acp.replyText(sessionId)).toContain('Thanks: the release goes to');
  });

  it('a declined form is the no-answer branch, said to the model as no answer', async () => {
    const sessionId = await acp.newSession(dir);
    acp.person.elicit = () => ({ action: 'decline' });
    const response = await acp.prompt(sessionId, 'plan the release');
    expect(response.stopReason).toBe('end_turn');
    const result = acp.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call_update' && u.status !== 'in_progress');
    expect(JSON.stringify(result)).toMatch(/declined/i);
  });

  it('the slash commands are listed, and one sent as a prompt runs', async () => {
    const sessionId = await acp.newSession(dir);
    const listed = await acp.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'available_commands_update');
    const names = listed.sessionUpdate === 'available_commands_update' ? listed.availableCommands.map((c) => c.name) : [];
    expect(names).toEqual(expect.arrayContaining(['ask', 'board']));
    const from = acp.notifications.length;
    const set = await acp.prompt(sessionId, '/ask ship the release notes');
    expect(set.stopReason).toBe('end_turn');
    const shown = await acp.prompt(sessionId, '/ask');
    expect(shown.stopReason).toBe('end_turn');
    expect(acp.replyText(sessionId, from)).toContain('ship the release notes');
  });

  it('session/list is auggy sessions; load replays a session made with auggy run --print, resume continues one', async () => {
    const run = await auggy(['run', dir, '--print', 'deploy the api', '--output', 'json']);
    expect(run.exitCode).toBe(3);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    const listed = await acp.agent.request('session/list', { cwd: dir });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect(listed.sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ cwd: dir, title: 'deploy the api' });

    const from = acp.notifications.length;
    await acp.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    const replayed = acp.updates(sessionId, from);
    expect(replayed[0]).toMatchObject({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'deploy the api' } });
    expect(acp.replyText(sessionId, from)).toContain('Which production service should I deploy');
    await acp.agent.request('session/close', { sessionId });

    const beforeResume = acp.notifications.length;
    await acp.agent.request('session/resume', { sessionId, cwd: dir });
    expect(acp.updates(sessionId, beforeResume).filter((u) => u.sessionUpdate !== 'available_commands_update')).toEqual([]);
    const answered = await acp.prompt(sessionId, 'api-east');
    expect(answered.stopReason).toBe('end_turn');
    await acp.agent.request('session/close', { sessionId });

    // The same session goes on in the terminal.
    const after = await auggy(['run', dir, '--print', 'hello', '--session', sessionId, '--output', 'json']);
    expect(after.exitCode).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ sessionId });
  });

  it('a prompt for a session the agent does not have is refused with the id named', async () => {
    await expect(acp.prompt('no-such-session', 'hi')).rejects.toBeInstanceOf(RequestError);
  });

  it('stdout carries JSON-RPC messages and nothing else', () => {
    expect(acp.stdout.length).toBeGreaterThan(0);
    expect(nonJsonRpcLines(acp.stdout)).toEqual([]);
  });
});
