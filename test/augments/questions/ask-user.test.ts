import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { questionsAugment } from '../../../src/augments/questions/augment.js';
import { ASK_USER } from '../../../src/augments/questions/ask-user-tool.js';
import { findAugmentFactory, BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import type { Augment } from '../../../src/kernel/augment.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import type { PersonChannel } from '../../../src/kernel/person.js';
import { buildSystemPrompt } from '../../../src/kernel/system-prompt.js';
import { runTurnLoop } from '../../../src/kernel/turn-loop.js';
import { openSession } from '../../../src/session/session.js';
import { REPO_ROOT, makeAgentFolder } from '../../helpers/agent-fixture.js';
import { mockModel, type MockStep } from '../../helpers/mock-model.js';
import { scriptedPerson } from '../../helpers/scripted-person.js';

const spec = {
  prompt: 'Two things before I deploy.',
  fields: [
    { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] },
    { name: 'replicas', type: 'integer', default: 2 },
  ],
};

/** The folder's augments on a real session, one turn through the real kernel loop with a fake model. */
async function turn(steps: MockStep[], person?: PersonChannel) {
  const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
  const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  if (!loaded.agent) throw new Error('fixture does not load');
  const agent = loaded.agent;
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name });
  const events: KernelEvent[] = [];
  const augments: Augment[] = [];
  for (const config of agent.augments) {
    const factory = findAugmentFactory(config.type);
    if (!factory) throw new Error(`no augment ${config.type}`);
    augments.push(
      await factory.create({
        agent,
        augmentId: config.id,
        config: config.config,
        session,
        emit: (event) => events.push(event),
        complete: async () => ({ ok: false, error: 'unused' }),
        warn: () => undefined,
      }),
    );
  }
  const model = mockModel(steps);
  const messages: ModelMessage[] = [{ role: 'user', content: 'deploy it' }];
  const result = await runTurnLoop({
    model,
    threadId: session.id,
    runId: 'run_1',
    messages,
    maxInferenceLoops: 10,
    signal: new AbortController().signal,
    emit: (event) => events.push(event),
    person,
    prepareRound: () => ({ system: buildSystemPrompt('You are a test agent.', [], augments), tools: augments.flatMap((a) => a.tools?.() ?? []) }),
    onMessage: (message) => messages.push(message),
    describeError: (error) => String(error),
    maxRetries: 0,
  });
  const toolResults = events.flatMap((e) => (e.type === 'TOOL_CALL_RESULT' ? [e] : []));
  const secondPrompt = JSON.stringify(model.doStreamCalls[1]?.prompt ?? []);
  return { result, events, toolResults, secondPrompt, toolNames: model.doStreamCalls[0].tools?.map((t) => t.name) };
}

describe('ask_user', () => {
  it('is offered beside request_input; with a person there, the answers come back and the turn goes on', async () => {
    const person = scriptedPerson(['production', '-']);
    const { result, toolResults, secondPrompt, toolNames } = await turn(
      [{ toolCalls: [{ name: ASK_USER, args: spec }] }, { text: 'Deploying 2 replicas to production.' }],
      person,
    );
    expect(toolNames).toEqual(['request_input', ASK_USER]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Deploying 2 replicas to production.');
    expect(JSON.parse(toolResults[0].content)).toEqual({ status: 'answered', answers: { env: 'production', replicas: 2 } });
    expect(toolResults[0].isError).toBeUndefined();
    expect(secondPrompt).toContain('\\"answers\\":{\\"env\\":\\"production\\",\\"replicas\\":2}');
    expect(person.asked[0]).toMatchObject({ questionnaireId: 'q_c0_0', intro: 'Two things before I deploy.', index: 1, total: 2 });
  });

  it('with nobody there (the kernel default), no-answer away at once; the model reads it and the turn completes', async () => {
    const { result, toolResults, secondPrompt, events } = await turn([
      { toolCalls: [{ name: ASK_USER, args: spec }] },
      { text: 'Nobody answered; I will wait.' },
    ]);
    expect(result.status).toBe('completed');
    expect(toolResults[0].content).toBe('{"status":"no-answer","reason":"away"}');
    expect(secondPrompt).toContain('no-answer');
    expect(events.some((e) => e.type === 'CUSTOM' && e.name === 'question')).toBe(true);
  });

  it('bad field specs are a tool error the model can read and fix; nobody is asked', async () => {
    const person = scriptedPerson([]);
    const bad = { prompt: 'p', fields: [{ name: 'env', type: 'choice' }] };
    const { toolResults, result } = await turn([{ toolCalls: [{ name: ASK_USER, args: bad }] }, { text: 'ok' }], person);
    expect(toolResults[0].isError).toBe(true);
    expect(toolResults[0].content).toContain('Invalid arguments for ask_user');
    expect(toolResults[0].content).toContain('field "env" is a choice: list its options');
    expect(person.asked).toHaveLength(0);
    expect(result.status).toBe('completed');
  });

  it('two ask_user calls in one batch ask one questionnaire after the other', async () => {
    const person = scriptedPerson(['staging', '3', 'yes']);
    const second = { prompt: 'And one more.', fields: [{ name: 'confirm', type: 'boolean' }] };
    const { toolResults } = await turn(
      [
        {
          toolCalls: [
            { name: ASK_USER, args: spec, id: 'a' },
            { name: ASK_USER, args: second, id: 'b' },
          ],
        },
        { text: 'done' },
      ],
      person,
    );
    expect(person.asked.map((q) => q.field)).toEqual(['env', 'replicas', 'confirm']);
    expect(toolResults.map((r) => JSON.parse(r.content) as unknown)).toEqual([
      { status: 'answered', answers: { env: 'staging', replicas: 3 } },
      { status: 'answered', answers: { confirm: true } },
    ]);
  });
});

describe('the questions augment', () => {
  it('is registered, opt-in, with a skill folder whose front matter names it', () => {
    expect(findAugmentFactory('questions')).toBe(questionsAugment);
    expect(questionsAugment.skill).toBe('questions');
    const skill = readFileSync(join(REPO_ROOT, 'templates', 'skills', 'questions', 'SKILL.md'), 'utf8');
    expect(skill).toMatch(/^---\nname: questions\ndescription: .+\n---\n/);
    expect(skill).toContain('ask_user');
  });

  it('describe() says what it exposes; validateConfig points at augment.yaml', async () => {
    const loaded = await loadAgent(makeAgentFolder({ augments: ['questions'] }), BUILTIN_AUGMENTS, { processEnv: {} });
    const section = questionsAugment.describe(loaded.agent!, {});
    expect(section).toMatchObject({ id: 'questions', type: 'questions', tools: [ASK_USER] });
    expect(section.rows.find((row) => row.label === 'Description override')?.value).toBe('default');
    expect(questionsAugment.validateConfig({}, 'augments/questions/augment.yaml', '.')).toEqual([]);
    expect(questionsAugment.validateConfig({ askUserDescription: 3 }, 'augments/questions/augment.yaml', '.')).toEqual([
      expect.objectContaining({ severity: 'error', file: 'augments/questions/augment.yaml', field: 'config.askUserDescription' }),
    ]);
  });

  it('config.askUserDescription overrides the tool description', async () => {
    const loaded = await loadAgent(makeAgentFolder({ augments: ['questions'] }), BUILTIN_AUGMENTS, { processEnv: {} });
    const augment = await questionsAugment.create({
      agent: loaded.agent!,
      augmentId: 'questions',
      config: { askUserDescription: 'Ask the deploy settings.' },
      session: await openSession({ agentDir: loaded.agent!.dir, agentName: 'fixture' }),
      emit: () => undefined,
      complete: async () => ({ ok: false, error: 'unused' }),
      warn: () => undefined,
    });
    expect(augment.tools?.()[0].description).toBe('Ask the deploy settings.');
  });
});
