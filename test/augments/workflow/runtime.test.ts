import { describe, expect, it } from 'vitest';
import { workflowAugment } from '../../../src/augments/workflow/augment.js';
import { openSession } from '../../../src/session/session.js';
import { loadFolder, lookupTool, packText, runTurn, savedState, startWorkflow, transition, transitions, workflowFolder } from './harness.js';

const PACK = packText({
  entry: 'intake',
  states: {
    intake: { prompt_task: 'intake', description: 'Find out who is asking.', on_event: { Identified: 'review', Escalate: 'desk' } },
    review: { prompt_task: 'review', orchestration: 'hybrid', control: 'agent', on_event: { Approved: 'done' } },
    desk: { prompt_task: 'review', orchestration: 'external', on_event: { Approved: 'done' } },
    done: { prompt_task: 'done', terminal: true },
  },
  prompts: {
    intake: {
      id: 'intake',
      name: 'Intake',
      version: '1.0.0',
      system_template: 'You work for {{company}} in {{region}}.',
      variables: [
        { name: 'company', type: 'string', required: false, default: 'Initech' },
        { name: 'region', type: 'string', required: false, default: 'the north' },
      ],
      tools: ['lookup'],
      // Published properties auggy does not use are accepted and ignored.
      parameters: { temperature: 0.2 },
      validators: [{ type: 'banned_words', config: { words: ['x'] } }],
    },
    review: { id: 'review', name: 'Review', version: '1.0.0', system_template: 'Review the request of {{customer}} ({{artifacts.ticket}}).' },
  },
});

describe('the workflow augment at runtime', () => {
  it('offers only the tools the state prompt lists, plus workflow__transition', async () => {
    const h = await startWorkflow(workflowFolder(PACK));
    const { calls } = await runTurn(h, [{ text: 'Hello.' }], { tools: [lookupTool('lookup'), lookupTool('deploy')] });
    expect(calls[0].tools).toEqual(['lookup', 'workflow__transition']);
  });

  it('warns once about a listed tool that no augment offers', async () => {
    const h = await startWorkflow(workflowFolder(PACK));
    await runTurn(h, [{ text: 'one' }]);
    await runTurn(h, [{ text: 'two' }]);
    expect(h.warnings).toEqual(['workflow: state intake lists tool lookup, which no enabled augment offers; it is left out']);
  });

  it('renders templates from variable defaults, augment.yaml variables and the carried context', async () => {
    const dir = workflowFolder(PACK, '  pack: ./flow.pack.yaml\n  variables:\n    company: Acme\n');
    const h = await startWorkflow(dir);
    expect(h.augment.promptBlock?.()).toContain('You work for Acme in the north.');
    expect(h.augment.promptBlock?.()).toContain('Current state: intake — Find out who is asking.');
    const { calls } = await runTurn(h, [{ toolCalls: [transition('Identified', { customer: 'Ada', artifacts: { ticket: 'T-9' } })] }, { text: 'Reviewing.' }]);
    expect(calls[1].system).toContain('Review the request of Ada (T-9).');
    expect(calls[1].tools).toEqual(['workflow__transition']);
  });

  it('keeps its position in workflow.json and resumes it with the session', async () => {
    const dir = workflowFolder(PACK);
    const h = await startWorkflow(dir);
    expect(savedState(h)).toMatchObject({
      version: 1,
      pack: 'test-pack',
      state: 'intake',
      visits: { intake: 1 },
      transitions: [],
      toolCalls: 0,
      complete: false,
    });
    await runTurn(h, [{ toolCalls: [transition('Escalate')] }]);
    const resumed = await startWorkflow(dir, { sessionId: h.session.id });
    expect(resumed.augment.indicator?.()).toBe('workflow: desk');
    expect(resumed.augment.snapshot?.()).toMatchObject({
      workflow: { state: 'desk', complete: false, transitions: [{ from: 'intake', to: 'desk', event: 'Escalate' }] },
    });
  });

  it('applies an external event before the turn without consulting control, and refuses a wrong one', async () => {
    const h = await startWorkflow(workflowFolder(PACK));
    expect(await h.augment.hostInput?.('board', 'x=1')).toBeUndefined();
    expect(await h.augment.hostInput?.('event', 'Approved')).toEqual({
      ok: false,
      message: 'workflow: "Approved" is not an event of state intake; valid events: Identified, Escalate',
      reason: '"Approved" is not an event of state intake; valid events: Identified, Escalate',
    });
    // review is control: agent, but an external event runs nothing: it just moves.
    expect(await h.augment.hostInput?.('event', 'Identified')).toEqual({ ok: true, message: 'workflow: intake → review (Identified, external)' });
    expect(transitions(h.events)).toEqual([{ from: 'intake', to: 'review', event: 'Identified', context: {}, initiator: 'external' }]);
    expect(await h.augment.hostInput?.('event', 'Approved')).toMatchObject({ ok: true });
    expect(await h.augment.hostInput?.('event', 'Approved')).toEqual({
      ok: false,
      message: 'workflow: the workflow is complete (state done); it takes no more events',
      reason: 'the workflow is complete (state done); it takes no more events',
    });
    expect(savedState(h)).toMatchObject({ state: 'done', complete: true });
    expect(h.augment.indicator?.()).toBe('workflow: done (complete)');
  });

  it('/workflow shows state, visits and budget use; /workflow event fires an event', async () => {
    const h = await startWorkflow(workflowFolder(PACK));
    const command = h.augment.commands?.()[0];
    expect(command?.name).toBe('workflow');
    const status = await command!.run('');
    expect(status.lines[0]).toBe('Workflow Test pack (flow.pack.yaml): running');
    expect(status.lines).toContain('State: intake (control: user, orchestration: internal)');
    expect(status.lines).toContain('Accepts: Identified → review, Escalate → desk');
    expect(status.lines).toContain('Visits: intake 1, review 0, desk 0, done 0');
    expect(status.lines.find((l) => l.startsWith('Budget:'))).toMatch(/visits 1 \(no limit\) · tool calls 0 \(no limit\)/);
    expect(await command!.run('event Escalate')).toEqual({ lines: ['workflow: intake → desk (Escalate, external)'], isError: false });
    expect((await command!.run('event Nope')).isError).toBe(true);
    expect((await command!.run('jump')).isError).toBe(true);
    expect((await command!.run('')).lines).toContain('Transitions: 1 (last: intake → desk on Escalate)');
  });

  it('a terminal entry state is complete from the start and offers no transition', async () => {
    const h = await startWorkflow(workflowFolder(packText({ entry: 'only', states: { only: { prompt_task: 'only', terminal: true } } })));
    expect(h.augment.tools?.()).toEqual([]);
    expect(h.augment.promptBlock?.()).toContain('is terminal: the workflow is complete');
    const { result } = await runTurn(h, [{ text: 'Done already.' }]);
    expect(result.status).toBe('completed');
  });

  it('starts over, with a warning, when the saved position does not fit the pack', async () => {
    const dir = workflowFolder(PACK);
    const h = await startWorkflow(dir);
    await h.session.writeState('workflow.json', { ...savedState(h), state: 'gone' });
    const resumed = await startWorkflow(dir, { sessionId: h.session.id });
    expect(resumed.warnings[0]).toMatch(/does not fit the pack test-pack; starting at intake/);
    expect(savedState(resumed)).toMatchObject({ state: 'intake' });
  });

  it('stays out of the way, with one warning, when the pack cannot be used', async () => {
    const dir = workflowFolder(PACK);
    const agent = await loadFolder(dir);
    const warnings: string[] = [];
    const augment = await workflowAugment.create({
      agent,
      augmentId: 'workflow',
      config: { pack: './missing.yaml' },
      session: await openSession({ agentDir: dir, agentName: 'fixture' }),
      emit: () => undefined,
      complete: async () => ({ ok: false, error: '' }),
      warn: (message) => warnings.push(message),
    });
    expect(augment.tools).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/missing\.yaml.*does not exist.*the workflow is off/);
  });
});
