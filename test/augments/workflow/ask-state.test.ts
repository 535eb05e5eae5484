import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KernelEvent } from '../../../src/kernel/events.js';
import { customValues, scriptedPerson, type ScriptedReply } from '../../helpers/scripted-person.js';
import { packText, runTurn, savedState, startWorkflow, stateOrder, transition, transitions, workflowFolder, type PackSpec } from './harness.js';
import { folderOf } from '../../helpers/session-folder.js';

/** intake (user) → details (the person) → plan or fallback (agent) → done. */
function deployPack(overrides: { states?: Record<string, Record<string, unknown>>; budget?: Record<string, number> } = {}): PackSpec {
  return {
    entry: 'intake',
    states: {
      intake: { prompt_task: 'intake', on_event: { NeedDetails: 'details' } },
      details: {
        description: 'The person says where to deploy.',
        ask: {
          prompt: 'A few details for {{customer}}, please.',
          fields: [
            { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] },
            { name: 'replicas', question: 'How many replicas?', type: 'integer', default: 2 },
            { name: 'regions', question: 'Which regions?', type: 'list' },
          ],
        },
        on_event: { Answered: 'plan', NoAnswer: 'fallback' },
      },
      plan: { prompt_task: 'plan', control: 'agent', on_event: { Done: 'done' } },
      fallback: { prompt_task: 'fallback', control: 'agent', on_event: { Done: 'done' } },
      done: { prompt_task: 'done', terminal: true },
      ...overrides.states,
    },
    prompts: {
      plan: { system_template: 'Deploy to {{answers.env}} with {{answers.replicas}} replicas in {{answers.regions}}.' },
      fallback: { system_template: 'Nobody said where to deploy; say what you still need.' },
    },
    ...(overrides.budget ? { budget: overrides.budget } : {}),
  };
}

const ANSWERS: ScriptedReply[] = ['2', '-', 'eu-west, us-east'];
const askFirst = { text: 'Let me ask you a few things.', toolCalls: [transition('NeedDetails', { customer: 'Ada' })] };

const countOf = (events: KernelEvent[], type: KernelEvent['type']) => events.filter((event) => event.type === type).length;

afterEach(() => {
  vi.useRealTimers();
});

describe('a workflow ask state: the person is a state', () => {
  it('Answered: the person answers, no model runs for them, and the next prompt reads {{answers.NAME}}', async () => {
    const h = await startWorkflow(workflowFolder(packText(deployPack())));
    const person = scriptedPerson(ANSWERS);
    const { result, calls } = await runTurn(h, [askFirst, { text: 'Deploying now.', toolCalls: [transition('Done')] }, { text: 'never reached' }], { person });

    // Two model calls: intake, then plan. The person's state made none.
    expect(calls).toHaveLength(2);
    expect(calls[0].system).toContain('NeedDetails → details (the person is asked 3 questions there, and their answer moves the workflow on)');
    expect(calls[1].system).toContain('Current state: plan');
    expect(calls[1].system).toContain('Deploy to production with 2 replicas in eu-west, us-east.');
    expect(result).toMatchObject({ status: 'completed' });
    expect(result.text).toMatch(/^Let me ask you a few things\.\s*Deploying now\.$/);

    // The questionnaire ran with the person, its prompt rendered from the carried context.
    expect(person.asked.map((q) => q.field)).toEqual(['env', 'replicas', 'regions']);
    expect(person.asked[0]).toMatchObject({ intro: 'A few details for Ada, please.', type: 'choice', options: ['staging', 'production'], index: 1, total: 3 });
    expect(customValues(h.events, 'question')).toHaveLength(3);
    expect(customValues(h.events, 'answered')).toEqual([
      expect.objectContaining({ field: 'env', answer: 'production' }),
      expect.objectContaining({ field: 'replicas', answer: 2 }),
      expect.objectContaining({ field: 'regions', answer: ['eu-west', 'us-east'] }),
    ]);
    // The person's turn is not a run: the one turn has one RUN_STARTED and one RUN_FINISHED.
    expect(countOf(h.events, 'RUN_STARTED')).toBe(1);
    expect(countOf(h.events, 'RUN_FINISHED')).toBe(1);

    expect(stateOrder(h, 'intake')).toEqual(['intake', 'details', 'plan', 'done']);
    const moves = transitions(h.events);
    expect(moves[1]).toMatchObject({ from: 'details', to: 'plan', event: 'Answered', initiator: 'person', asked: { status: 'answered' } });
    expect(savedState(h)).toMatchObject({
      state: 'done',
      complete: true,
      visits: { intake: 1, details: 1, plan: 1, done: 1 },
      answers: { env: 'production', replicas: 2, regions: ['eu-west', 'us-east'] },
      // Only the model's tool calls count; the person's answers are not tool calls.
      toolCalls: 2,
    });
    expect(h.augment.snapshot?.()).toMatchObject({
      workflow: { transitions: [{}, { event: 'Answered', initiator: 'person', asked: { status: 'answered' } }, {}] },
    });
  });

  it.each([
    ['away', 'nobody is there (the kernel’s NOBODY, as in --print)', undefined],
    ['refused', 'the answer is refused after 3 re-asks', ['moon', 'moon', 'moon', 'moon']],
    ['declined', 'the person presses Esc', [{ kind: 'declined' }]],
  ] as const)('NoAnswer (%s): %s, and the fallback state runs with the reason', async (reason, _label, replies) => {
    const h = await startWorkflow(workflowFolder(packText(deployPack())));
    const person = replies ? scriptedPerson([...replies]) : undefined;
    const { result, calls } = await runTurn(h, [askFirst, { text: 'I still need the environment.', toolCalls: [transition('Done')] }], { person });

    expect(calls).toHaveLength(2);
    expect(calls[1].system).toContain('Current state: fallback');
    expect(calls[1].system).toContain(`The person gave no answer to the questions of state details (${reason}`);
    expect(result.status).toBe('completed');
    // Each refusal is asked again on its field at once.
    if (reason === 'refused') expect(person?.asked.map((q) => q.field)).toEqual(['env', 'env', 'env', 'env']);
    expect(customValues(h.events, 'questionnaire.result')).toEqual([expect.objectContaining({ status: 'no-answer', reason })]);
    expect(countOf(h.events, 'RUN_STARTED')).toBe(1);
    expect(transitions(h.events)[1]).toMatchObject({
      from: 'details',
      to: 'fallback',
      event: 'NoAnswer',
      initiator: 'person',
      asked: { status: 'no-answer', reason },
    });
    expect(h.events).toContainEqual({ type: 'CUSTOM', name: 'auggy.system', value: { text: `workflow: details → fallback (NoAnswer: ${reason})` } });
    expect(savedState(h)).toMatchObject({ state: 'done', answers: {} });
  });

  it('a NoAnswer drops that state’s earlier answers, so no later prompt reads a stale one', async () => {
    const pack = deployPack({
      states: {
        plan: { prompt_task: 'plan', control: 'agent', on_event: { Again: 'details' } },
        fallback: { prompt_task: 'fallback', on_event: { Done: 'done' } },
      },
    });
    const h = await startWorkflow(workflowFolder(packText(pack)));
    await runTurn(h, [askFirst, { toolCalls: [transition('Again')] }, { text: 'Going on without it.' }], { person: scriptedPerson(ANSWERS) });
    expect(stateOrder(h, 'intake')).toEqual(['intake', 'details', 'plan', 'details', 'fallback']);
    expect(savedState(h)).toMatchObject({ state: 'fallback', answers: {}, visits: { details: 2 } });
  });

  it('ask states chain: a second ask reads the first one’s answers, and a user target yields the turn', async () => {
    const pack = deployPack({
      states: {
        details: { ...deployPack().states.details, on_event: { Answered: 'confirm', NoAnswer: 'fallback' } },
        confirm: {
          ask: { prompt: 'Deploy to {{answers.env}} in {{answers.regions}}?', fields: [{ name: 'go', question: 'Go ahead?', type: 'boolean' }] },
          on_event: { Answered: 'review', NoAnswer: 'fallback' },
        },
        review: { prompt_task: 'review', on_event: { Done: 'done' } },
      },
    });
    const h = await startWorkflow(workflowFolder(packText(pack)));
    const person = scriptedPerson([...ANSWERS, 'yes']);
    const first = await runTurn(h, [askFirst, { text: 'never reached in this turn' }], { person });
    // review is control: user, so the turn yields straight after the person's answers.
    expect(first.calls).toHaveLength(1);
    expect(first.result.status).toBe('completed');
    expect(person.asked.at(-1)).toMatchObject({ field: 'go', intro: 'Deploy to production in eu-west, us-east?', type: 'boolean' });
    expect(stateOrder(h, 'intake')).toEqual(['intake', 'details', 'confirm', 'review']);
    expect(savedState(h)).toMatchObject({ state: 'review', answers: { env: 'production', go: true } });
    const second = await runTurn(h, [{ text: 'Reviewed.' }]);
    expect(second.calls[0].system).toContain('Current state: review');
    expect(second.calls[0].system).toContain('"go":true');
  });

  it('the person’s thinking time is not wall time, but their visit counts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const h = await startWorkflow(workflowFolder(packText(deployPack({ budget: { max_wall_time_sec: 60 } }))));
    const slow = scriptedPerson(ANSWERS);
    const ask = slow.ask.bind(slow);
    // Two minutes pass while the person reads and types.
    slow.ask = async (question, signal) => {
      vi.setSystemTime(Date.now() + 40_000);
      return ask(question, signal);
    };
    const { result } = await runTurn(h, [askFirst, { toolCalls: [transition('Done')] }], { person: slow });
    expect(result.status).toBe('completed');
    expect(savedState(h)).toMatchObject({ state: 'done', visits: { details: 1 } });
    expect((savedState(h).personMs as number) >= 120_000).toBe(true);
    const status = await h.augment.commands?.()[0].run('');
    expect(status?.lines.find((line) => line.startsWith('Budget:'))).toMatch(/wall time 0s\/60s \(120s answering questions not counted\)/);
    expect(status?.lines).toContain('Answers: {"env":"production","replicas":2,"regions":["eu-west","us-east"]}');
  });

  it('entering the ask state is a visit: max_total_visits stops the move out of it', async () => {
    const h = await startWorkflow(workflowFolder(packText(deployPack({ budget: { max_total_visits: 2 } }))));
    const { result, calls } = await runTurn(h, [askFirst, { text: 'never reached' }], { person: scriptedPerson(ANSWERS) });
    expect(calls).toHaveLength(1);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_total_visits \(2\)/);
    expect(savedState(h)).toMatchObject({ state: 'details', stopped: expect.stringContaining('max_total_visits'), answers: { env: 'production' } });
  });

  it('an external event into an ask state asks nobody and takes NoAnswer at once', async () => {
    const h = await startWorkflow(workflowFolder(packText(deployPack())));
    expect(await h.augment.hostInput?.('event', 'NeedDetails')).toEqual({
      ok: true,
      message: 'workflow: intake → details (NeedDetails, external); workflow: details → fallback (NoAnswer: away)',
    });
    expect(customValues(h.events, 'question')).toHaveLength(1);
    expect(transitions(h.events).map((t) => `${t.from}→${t.to}:${t.initiator}`)).toEqual(['intake→details:external', 'details→fallback:person']);
    expect(countOf(h.events, 'RUN_STARTED')).toBe(0);
    const { calls } = await runTurn(h, [{ text: 'Nobody answered; which environment?' }]);
    expect(calls[0].system).toContain('Current state: fallback');
  });

  it('/workflow event into an ask state reports both moves', async () => {
    const h = await startWorkflow(workflowFolder(packText(deployPack())));
    expect(await h.augment.commands?.()[0].run('event NeedDetails')).toEqual({
      lines: ['workflow: intake → details (NeedDetails, external); workflow: details → fallback (NoAnswer: away)'],
      isError: false,
    });
  });

  it('a workflow left in an ask state (the process ended mid-questionnaire) settles it before the next model round', async () => {
    const dir = workflowFolder(packText(deployPack()));
    const first = await startWorkflow(dir);
    writeFileSync(
      join(folderOf(first.session), 'workflow.json'),
      JSON.stringify({ ...savedState(first), state: 'details', visits: { intake: 1, details: 1 } }),
    );
    const h = await startWorkflow(dir, { sessionId: first.session.id });
    const { calls } = await runTurn(h, [{ text: 'Which environment should I use?' }]);
    expect(calls[0].system).toContain('Current state: fallback');
    expect(transitions(h.events)).toEqual([
      expect.objectContaining({ from: 'details', to: 'fallback', event: 'NoAnswer', asked: expect.objectContaining({ reason: 'away' }) }),
    ]);
  });

  it('an ask state with no branch for its result stops the workflow, saying which', async () => {
    const pack = deployPack({ states: { details: { ...deployPack().states.details, on_event: { Answered: 'plan' } } } });
    const h = await startWorkflow(workflowFolder(packText(pack)));
    const { result, calls } = await runTurn(h, [askFirst, { text: 'never reached' }]);
    expect(calls).toHaveLength(1);
    expect(result).toMatchObject({ status: 'budget-exhausted', message: 'state details got no answer (away) and declares no NoAnswer event to go on with' });
    expect(savedState(h)).toMatchObject({ state: 'details', stopped: expect.stringContaining('declares no NoAnswer') });
  });

  it.each([
    ['nobody is there', undefined],
    ['the person’s channel only ever says away', scriptedPerson([])],
  ])('a NoAnswer loop of ask states stops instead of asking forever when %s', async (_label, person) => {
    const pack = deployPack({ states: { details: { ...deployPack().states.details, on_event: { Answered: 'plan', NoAnswer: 'details' } } } });
    const h = await startWorkflow(workflowFolder(packText(pack)));
    const { result } = await runTurn(h, [askFirst, { text: 'never reached' }], { person });
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/state details would ask its questions again with nobody there to answer/);
    expect(customValues(h.events, 'question')).toHaveLength(1);
  });

  it('a turn canceled while the person is asked takes NoAnswer (declined), so the workflow never rests in the ask state', async () => {
    const h = await startWorkflow(workflowFolder(packText(deployPack())));
    const controller = new AbortController();
    const person = scriptedPerson([]);
    person.ask = async () => {
      controller.abort(new Error('canceled by the person'));
      return new Promise(() => undefined);
    };
    const { result, calls } = await runTurn(h, [askFirst, { text: 'never reached' }], { person, signal: controller.signal });
    expect(calls).toHaveLength(1);
    expect(result.status).toBe('canceled');
    expect(transitions(h.events)[1]).toMatchObject({ from: 'details', to: 'fallback', event: 'NoAnswer', asked: { reason: 'declined' } });
    expect(savedState(h)).toMatchObject({ state: 'fallback' });
  });

  it('with a person there, a NoAnswer loop asks again until they answer', async () => {
    const pack = deployPack({ states: { details: { ...deployPack().states.details, on_event: { Answered: 'plan', NoAnswer: 'details' } } } });
    const h = await startWorkflow(workflowFolder(packText(pack)));
    const person = scriptedPerson([{ kind: 'declined' }, ...ANSWERS]);
    const { calls } = await runTurn(h, [askFirst, { text: 'Planned.' }], { person });
    expect(stateOrder(h, 'intake')).toEqual(['intake', 'details', 'details', 'plan']);
    expect(calls[1].system).toContain('Deploy to production');
  });
});
