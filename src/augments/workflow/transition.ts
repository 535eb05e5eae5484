import type { StateDef, WorkflowModel } from './pack-model.js';
import { totalVisits, type RunState, type TransitionRecord } from './workflow-state.js';

export interface EventRequest {
  event: string;
  /** As the model gave it: PromptKit's summary string, or facts as an object. */
  context?: Record<string, unknown> | string;
  initiator: TransitionRecord['initiator'];
  /** Set when an ask state's questionnaire fires the event. */
  asked?: TransitionRecord['asked'];
  now: Date;
}

export type EventOutcome =
  /** Nothing changed: the event does not apply here. */
  | { kind: 'refused'; message: string }
  /** A limit ended the workflow; `run` records why. */
  | { kind: 'stopped'; message: string; run: RunState }
  | { kind: 'moved'; run: RunState; record: TransitionRecord; target: StateDef };

/** Why the current state cannot take `event`, or undefined when it can. */
export function eventProblem(model: WorkflowModel, run: RunState, event: string): string | undefined {
  if (run.stopped !== undefined) return `the workflow has stopped (${run.stopped}); it takes no more events`;
  if (run.complete) return `the workflow is complete (state ${run.state}); it takes no more events`;
  const events = Object.keys(model.states[run.state]?.onEvent ?? {});
  if (events.includes(event)) return undefined;
  if (events.length === 0) return `state ${run.state} accepts no events`;
  return `"${event}" is not an event of state ${run.state}; valid events: ${events.join(', ')}`;
}

/** Seconds the workflow has run, without the time the person spent answering its questions. */
export function workflowSeconds(run: RunState, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(run.startedAt) - run.personMs) / 1000));
}

/**
 * The first engine.budget limit the workflow has reached, if any: a count trips when it reaches
 * its limit, as in PromptKit and RFC 0009, so the call that reaches it is the last one made.
 */
export function budgetProblem(model: WorkflowModel, run: RunState, now: Date, moving = false): string | undefined {
  const { max_total_visits: maxVisits, max_tool_calls: maxTools, max_wall_time_sec: maxSeconds } = model.budget;
  // Visits are spent by moving: a full count refuses the next move, not a batch that stays put.
  if (moving && maxVisits !== undefined && totalVisits(run) >= maxVisits) {
    return `workflow budget max_total_visits (${maxVisits}) is used up: ${totalVisits(run)} state visits so far`;
  }
  if (maxTools !== undefined && run.toolCalls >= maxTools) {
    return `workflow budget max_tool_calls (${maxTools}) is used up: ${run.toolCalls} tool calls so far`;
  }
  const seconds = workflowSeconds(run, now);
  if (maxSeconds !== undefined && seconds >= maxSeconds) {
    const person = run.personMs >= 1000 ? ` (not counting ${Math.floor(run.personMs / 1000)}s spent answering questions)` : '';
    return `workflow budget max_wall_time_sec (${maxSeconds}) is used up: the workflow has run ${seconds}s${person}`;
  }
  return undefined;
}

/**
 * Where an event really leads once max_visits is applied: its target, or that target's
 * on_max_visits, or a reason to stop. As in PromptKit the redirect happens once: the state it
 * leads to is entered without checking its own max_visits (validate warns about such chains).
 */
function resolveTarget(
  model: WorkflowModel,
  run: RunState,
  target: string,
): { target: string; redirected?: TransitionRecord['redirected'] } | { stop: string } {
  const def = model.states[target];
  const visits = run.visits[target] ?? 0;
  if (def.maxVisits === undefined || visits < def.maxVisits) return { target };
  if (def.onMaxVisits === undefined) {
    return { stop: `state ${target} reached its max_visits (${def.maxVisits}) and the pack names no on_max_visits to go to instead` };
  }
  return { target: def.onMaxVisits, redirected: { target, maxVisits: def.maxVisits } };
}

/** What a transition's context adds to the carried context: an object's facts, or the summary as workflow_context. */
function carried(context: EventRequest['context']): Record<string, unknown> {
  if (context === undefined) return {};
  // PromptKit hands the summary to the next state's prompt as {{workflow_context}}.
  return typeof context === 'string' ? { workflow_context: context } : context;
}

function hasContext(context: EventRequest['context']): boolean {
  return context !== undefined && (typeof context === 'string' ? context.trim() !== '' : Object.keys(context).length > 0);
}

/** Applies one event: the budget first, then max_visits on the target, then the move. Pure. */
export function applyEvent(model: WorkflowModel, run: RunState, request: EventRequest): EventOutcome {
  const problem = eventProblem(model, run, request.event);
  if (problem) return { kind: 'refused', message: problem };
  const budget = budgetProblem(model, run, request.now, true);
  if (budget) return { kind: 'stopped', message: budget, run: { ...run, stopped: budget } };

  const resolved = resolveTarget(model, run, model.states[run.state].onEvent[request.event]);
  if ('stop' in resolved) return { kind: 'stopped', message: resolved.stop, run: { ...run, stopped: resolved.stop } };

  const target = model.states[resolved.target];
  const record: TransitionRecord = {
    from: run.state,
    to: target.name,
    event: request.event,
    ...(request.context !== undefined && hasContext(request.context) ? { context: request.context } : {}),
    ...(resolved.redirected ? { redirected: resolved.redirected } : {}),
    initiator: request.initiator,
    ...(request.asked ? { asked: request.asked } : {}),
    at: request.now.toISOString(),
  };
  const next: RunState = {
    ...run,
    state: target.name,
    visits: { ...run.visits, [target.name]: (run.visits[target.name] ?? 0) + 1 },
    context: { ...run.context, ...carried(request.context) },
    transitions: [...run.transitions, record],
    complete: target.terminal,
    // The artifacts as they stood when the workflow moved (PromptKit snapshots them only once there are any).
    artifactHistory:
      Object.keys(run.artifacts).length > 0
        ? [...run.artifactHistory, { from: record.from, to: record.to, event: record.event, values: { ...run.artifacts }, at: record.at }]
        : run.artifactHistory,
  };
  return { kind: 'moved', run: next, record, target };
}
