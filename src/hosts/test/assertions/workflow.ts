import { z } from 'zod';
import type { ObservedWorkflow, Scope } from './scope.js';
import { assertionType, type CheckResult } from './types.js';
import { listed, shown, stringList } from './describe.js';

const NO_WORKFLOW = 'the agent has no workflow augment (add workflow to agent.yaml augments)';

function withWorkflow(scope: Scope, expected: string, check: (workflow: ObservedWorkflow) => CheckResult): CheckResult {
  return scope.workflow ? check(scope.workflow) : { passed: false, expected, actual: NO_WORKFLOW };
}

function path(workflow: ObservedWorkflow): string {
  return workflow.transitions.length === 0
    ? `no transitions (still in ${workflow.state})`
    : workflow.transitions.map((move) => `${move.from} -${move.event}-> ${move.to}`).join(', ');
}

const stateParams = z.object({ state: z.string().min(1) });

/** state_is: the workflow stands in `state` after the turn. */
export const stateIs = assertionType({
  name: 'state_is',
  aliases: ['workflow_state_is'],
  params: stateParams,
  check({ state }, scope) {
    const expected = `the workflow in state ${shown(state)}`;
    return withWorkflow(scope, expected, (workflow) => ({ passed: workflow.state === state, expected, actual: `in state ${shown(workflow.state)}` }));
  },
});

/** transitioned_to: some transition so far entered `state`. */
export const transitionedTo = assertionType({
  name: 'transitioned_to',
  aliases: ['workflow_transitioned_to'],
  params: stateParams,
  check({ state }, scope) {
    const expected = `a transition to ${shown(state)}`;
    return withWorkflow(scope, expected, (workflow) => ({ passed: workflow.transitions.some((move) => move.to === state), expected, actual: path(workflow) }));
  },
});

/** workflow_transition_order: the states of `sequence` were entered in that order (others may come between). */
export const workflowTransitionOrder = assertionType({
  name: 'workflow_transition_order',
  params: z.object({ sequence: stringList }),
  check({ sequence }, scope) {
    const expected = `transitions into ${listed(sequence, 'then')}, in that order`;
    return withWorkflow(scope, expected, (workflow) => {
      let matched = 0;
      for (const move of workflow.transitions) if (matched < sequence.length && move.to === sequence[matched]) matched++;
      return { passed: matched === sequence.length, score: matched / sequence.length, expected, actual: path(workflow) };
    });
  },
});

/** workflow_complete: the workflow reached a terminal state. */
export const workflowComplete = assertionType({
  name: 'workflow_complete',
  params: z.object({}).default({}),
  check(_params, scope) {
    const expected = 'the workflow complete (in a terminal state)';
    return withWorkflow(scope, expected, (workflow) => ({
      passed: workflow.complete,
      expected,
      actual: workflow.complete
        ? `complete in ${workflow.state}`
        : `not complete: in ${shown(workflow.state)}${workflow.stopped ? `, stopped: ${workflow.stopped}` : ''}`,
    }));
  },
});
