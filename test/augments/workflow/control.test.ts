import { describe, expect, it } from 'vitest';
import { RFC_SUPPORT, packText, rfcCodegen, runTurn, savedState, startWorkflow, stateOrder, transition, transitions, workflowFolder } from './harness.js';

const SUPPORT = packText(RFC_SUPPORT);

describe('workflow state control (RFC 0014, Level 2)', () => {
  it.each([
    ['absent', {}],
    ['user', { control: 'user' }],
  ])('control %s: the turn yields after one transition, with no second inference', async (_label, control) => {
    const h = await startWorkflow(
      workflowFolder(
        packText({
          entry: 'a',
          states: {
            a: { prompt_task: 'a', on_event: { Next: 'b' } },
            b: { prompt_task: 'b', ...control, on_event: { Next: 'c' } },
            c: { prompt_task: 'c', terminal: true },
          },
        }),
      ),
    );
    const { result, model } = await runTurn(h, [{ text: 'Moving on.', toolCalls: [transition('Next')] }, { toolCalls: [transition('Next')] }]);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', text: 'Moving on.' });
    expect(stateOrder(h, 'a')).toEqual(['a', 'b']);
    expect(savedState(h)).toMatchObject({ state: 'b', complete: false, visits: { a: 1, b: 1 } });
  });

  it('verifying → triage (agent) → resolution (terminal): one message, one reply from the rounds, three states in order', async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    const { result, calls } = await runTurn(
      h,
      [
        { text: 'Thanks, you are verified.', toolCalls: [transition('AccountVerified', { account_id: 'ACC-12345' })] },
        { text: 'Your balance is $1,234.56.', toolCalls: [transition('ServeBalance')] },
        { text: 'never reached' },
      ],
      { user: 'I need my balance, my ID is ACC-12345' },
    );
    expect(calls).toHaveLength(2);
    expect(result.status).toBe('completed');
    expect(result.text).toMatch(/^Thanks, you are verified\.\s*Your balance is \$1,234\.56\.$/);
    expect(stateOrder(h, 'verifying')).toEqual(['verifying', 'triage', 'resolution']);
    expect(transitions(h.events).map((t) => t.event)).toEqual(['AccountVerified', 'ServeBalance']);
    expect(transitions(h.events)[0]).toMatchObject({ context: { account_id: 'ACC-12345' }, initiator: 'agent' });
    // The second round is rebuilt for triage: its prompt, and its events as the enum.
    expect(calls[0].system).toContain('Current state: verifying');
    expect(calls[1].system).toContain('Current state: triage');
    expect(calls[1].system).toContain('Carried context: {"account_id":"ACC-12345"}');
    expect(calls[1].tools).toEqual(['workflow__transition']);
    expect(JSON.stringify(calls[1].toolSchemas[0])).toContain('"enum":["ServeBalance","EscalateToAgent"]');
    expect(savedState(h)).toMatchObject({ state: 'resolution', complete: true });
    expect(h.augment.snapshot?.()).toMatchObject({
      workflow: {
        state: 'resolution',
        complete: true,
        transitions: [
          { from: 'verifying', to: 'triage' },
          { from: 'triage', to: 'resolution' },
        ],
      },
    });
  });

  it('codegen loop compile → fix → compile → test runs without user turns; fix.max_visits redirects to report, which speaks', async () => {
    const h = await startWorkflow(workflowFolder(packText(rfcCodegen(1))));
    const { result, calls } = await runTurn(h, [
      { toolCalls: [transition('CompileFailed')] },
      { toolCalls: [transition('PatchApplied')] },
      { toolCalls: [transition('CompileOk')] },
      { toolCalls: [transition('TestsFailed')] },
      { text: 'Tests still fail after one fix; here is the report.', toolCalls: [transition('TestsFailed')] },
    ]);
    // Nothing was said on the way, so the terminal state gets one closing round, with no tools.
    expect(calls).toHaveLength(5);
    expect(calls[4].system).toContain('Current state: report');
    expect(calls[4].tools).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', text: 'Tests still fail after one fix; here is the report.' });
    expect(stateOrder(h, 'compile')).toEqual(['compile', 'fix', 'compile', 'test', 'report']);
    expect(transitions(h.events).at(-1)).toMatchObject({ from: 'test', to: 'report', event: 'TestsFailed', redirected: { target: 'fix', maxVisits: 1 } });
    expect(savedState(h)).toMatchObject({ state: 'report', complete: true, visits: { compile: 2, fix: 1, test: 1, report: 1 } });
  });

  it('max_visits without on_max_visits ends the turn budget-exhausted naming the limit', async () => {
    const h = await startWorkflow(
      workflowFolder(
        packText({
          entry: 'a',
          states: {
            a: { prompt_task: 'a', control: 'agent', max_visits: 2, on_event: { Again: 'b' } },
            b: { prompt_task: 'b', control: 'agent', on_event: { Back: 'a', Done: 'end' } },
            end: { prompt_task: 'end', terminal: true },
          },
        }),
      ),
    );
    const { result, calls } = await runTurn(h, [
      { toolCalls: [transition('Again')] },
      { toolCalls: [transition('Back')] },
      { toolCalls: [transition('Again')] },
      { toolCalls: [transition('Back')] },
      { text: 'never reached' },
    ]);
    expect(calls).toHaveLength(4);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/state a reached its max_visits \(2\)/);
    expect(stateOrder(h, 'a')).toEqual(['a', 'b', 'a', 'b']);
    expect(savedState(h)).toMatchObject({ state: 'b', stopped: expect.stringContaining('max_visits (2)') });
    // A stopped workflow offers no transition any more and says so.
    expect(h.augment.tools?.()).toEqual([]);
    expect(h.augment.promptBlock?.()).toContain('The workflow has stopped');
  });

  it('an agent state that answers without transitioning ends the loop with its text', async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    const { result, calls } = await runTurn(h, [
      { text: 'Verified.', toolCalls: [transition('AccountVerified')] },
      { text: 'What do you need today: a balance, or help with a card?' },
      { text: 'never reached' },
    ]);
    expect(calls).toHaveLength(2);
    expect(result.status).toBe('completed');
    expect(result.text).toMatch(/^Verified\.\s*What do you need today: a balance, or help with a card\?$/);
    expect(savedState(h)).toMatchObject({ state: 'triage', complete: false });
  });

  it.each(['agent', 'user', undefined])('an external destination yields whatever its control (%s)', async (control) => {
    const h = await startWorkflow(
      workflowFolder(
        packText({
          entry: 'work',
          states: {
            work: { prompt_task: 'work', on_event: { NeedsApproval: 'approval' } },
            approval: { prompt_task: 'approval', orchestration: 'external', ...(control ? { control } : {}), on_event: { Approved: 'done' } },
            done: { prompt_task: 'done', terminal: true },
          },
        }),
      ),
    );
    const { result, calls } = await runTurn(h, [{ text: 'Sent for approval.', toolCalls: [transition('NeedsApproval')] }, { text: 'never reached' }]);
    expect(calls).toHaveLength(1);
    expect(result.status).toBe('completed');
    expect(savedState(h)).toMatchObject({ state: 'approval' });
    // The agent does not move an external state: no transition tool there.
    expect(h.augment.tools?.()).toEqual([]);
    expect(h.augment.promptBlock?.()).toContain('moved from outside');
  });

  it('an unknown event is a tool error listing the valid ones; the state does not change', async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    const { result, calls } = await runTurn(h, [{ toolCalls: [transition('Verified')] }, { text: 'What is your account ID?' }]);
    expect(calls).toHaveLength(2);
    expect(result.status).toBe('completed');
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0].content).toBe('Unknown event "Verified"; valid events in state verifying: AccountVerified.');
    expect(transitions(h.events)).toEqual([]);
    expect(savedState(h)).toMatchObject({ state: 'verifying', transitions: [] });
  });

  it('an all-agent cycle with no max_visits and no budget ends budget-exhausted at the one bound on rounds for the turn', async () => {
    const cycle = packText({
      entry: 'a',
      states: {
        a: { prompt_task: 'a', control: 'agent', on_event: { Go: 'b' } },
        b: { prompt_task: 'b', control: 'agent', on_event: { Go: 'a' } },
      },
    });
    const h = await startWorkflow(workflowFolder(cycle));
    const { result, calls } = await runTurn(
      h,
      Array.from({ length: 50 }, () => ({ toolCalls: [transition('Go')] })),
      { maxInferenceLoops: 4 },
    );
    // Every move into an agent state used to restart the count; now the turn has one bound.
    expect(calls).toHaveLength(4);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/4 inference rounds \(settings\.maxInferenceLoops\)/);
    expect(stateOrder(h, 'a')).toEqual(['a', 'b', 'a', 'b', 'a']);
  });

  it('engine.budget.max_rounds raises the bound for a workflow whose loop is meant to run longer', async () => {
    const cycle = packText({
      entry: 'a',
      states: {
        a: { prompt_task: 'a', control: 'agent', on_event: { Go: 'b' } },
        b: { prompt_task: 'b', control: 'agent', on_event: { Go: 'a' } },
      },
      budget: { max_rounds: 6 },
    });
    const h = await startWorkflow(workflowFolder(cycle));
    const { result, calls } = await runTurn(
      h,
      Array.from({ length: 50 }, () => ({ toolCalls: [transition('Go')] })),
      { maxInferenceLoops: 2 },
    );
    expect(calls).toHaveLength(6);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/6 inference rounds \(engine\.budget\.max_rounds of /);
  });

  it('two transitions in one response: the first is committed, the second refused', async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    const { result } = await runTurn(h, [{ toolCalls: [transition('AccountVerified'), transition('AccountVerified')] }, { text: 'Routing.' }]);
    expect(result.toolCalls.map((c) => c.isError)).toEqual([false, true]);
    expect(result.toolCalls[1].content).toMatch(/already pending/);
    expect(transitions(h.events)).toHaveLength(1);
  });
});

describe('the PromptKit-shaped workflow__transition', () => {
  it("offers {event, context} with event an enum of the state's events and context a required string", async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    const { calls } = await runTurn(h, [{ text: 'Hello.' }]);
    const schema = JSON.stringify(calls[0].toolSchemas[0]);
    expect(schema).toContain('"enum":["AccountVerified"]');
    expect(schema).toMatch(/"context":\{[^}]*"type":"string"/);
    expect(schema).toMatch(/"required":\["event","context"\]/);
  });

  it('a string context moves the state, is kept as given, and reaches the next prompt as {{workflow_context}}', async () => {
    const pack = packText({
      version: 1,
      entry: 'triage',
      states: { triage: { prompt_task: 'triage', on_event: { Approved: 'confirmation' } }, confirmation: { prompt_task: 'confirmation' } },
      prompts: { confirmation: { system_template: 'Confirm the refund. Handed over: {{workflow_context}}' } },
    });
    const h = await startWorkflow(workflowFolder(pack));
    const { result, calls } = await runTurn(h, [
      { toolCalls: [transition('Approved', 'Refunded $20 on order 7')] },
      { text: 'Your $20 refund is on its way.' },
    ]);
    expect(transitions(h.events)).toEqual([expect.objectContaining({ from: 'triage', to: 'confirmation', context: 'Refunded $20 on order 7' })]);
    // confirmation has no on_event: terminal, as in PromptKit; nothing was said, so it speaks.
    expect(calls[1].system).toContain('Handed over: Refunded $20 on order 7');
    expect(result).toMatchObject({ status: 'completed', text: 'Your $20 refund is on its way.' });
    expect(savedState(h)).toMatchObject({ state: 'confirmation', complete: true });
  });

  it('an object context is still accepted and kept as given', async () => {
    const h = await startWorkflow(workflowFolder(SUPPORT));
    await runTurn(h, [{ toolCalls: [transition('AccountVerified', { account_id: 'ACC-1' })] }, { text: 'Routing.' }]);
    expect(transitions(h.events)[0]).toMatchObject({ context: { account_id: 'ACC-1' } });
  });
});
