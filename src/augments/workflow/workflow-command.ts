import type { CommandOutput, SlashCommand } from '../../kernel/augment.js';
import type { WorkflowModel } from './pack-model.js';
import type { WorkflowRuntime } from './workflow-runtime.js';
import { workflowSeconds } from './transition.js';
import { totalVisits, type RunState } from './workflow-state.js';

function used(value: number, limit: number | undefined, unit = ''): string {
  return limit === undefined ? `${value}${unit} (no limit)` : `${value}${unit}/${limit}${unit}`;
}

/** What `/workflow` prints: the state, what it accepts, visits per state and budget use. */
export function statusLines(model: WorkflowModel, run: RunState, now: Date): string[] {
  const state = model.states[run.state];
  const status = run.stopped !== undefined ? `stopped: ${run.stopped}` : run.complete ? 'complete' : 'running';
  const events = Object.entries(state.onEvent).map(([event, target]) => `${event} → ${target}`);
  const visits = Object.values(model.states).map((s) => `${s.name} ${run.visits[s.name] ?? 0}${s.maxVisits === undefined ? '' : `/${s.maxVisits}`}`);
  const seconds = workflowSeconds(run, now);
  const personSeconds = Math.floor(run.personMs / 1000);
  const budget = model.budget;
  const last = run.transitions.at(-1);
  return [
    `Workflow ${model.name} (${model.file}): ${status}`,
    `State: ${state.name} (control: ${state.control}, orchestration: ${state.orchestration}${state.terminal ? ', terminal' : ''})`,
    `Accepts: ${events.length > 0 ? events.join(', ') : 'no events'}`,
    `Visits: ${visits.join(', ')}`,
    `Budget: visits ${used(totalVisits(run), budget.max_total_visits)} · tool calls ${used(run.toolCalls, budget.max_tool_calls)} · wall time ${used(seconds, budget.max_wall_time_sec, 's')}` +
      (personSeconds > 0 ? ` (${personSeconds}s answering questions not counted)` : ''),
    `Transitions: ${run.transitions.length}${last ? ` (last: ${last.from} → ${last.to} on ${last.event})` : ''}`,
    ...(Object.keys(run.answers).length > 0 ? [`Answers: ${JSON.stringify(run.answers)}`] : []),
  ];
}

/** `/workflow` shows where the workflow stands; `/workflow event <Name>` fires an event from outside. */
export function workflowCommand(runtime: WorkflowRuntime, now: () => Date = () => new Date()): SlashCommand {
  return {
    name: 'workflow',
    summary: 'show the workflow state, visits and budget; /workflow event <Name> fires an event',
    usage: '/workflow [event <Name>]',
    async run(args): Promise<CommandOutput> {
      const [verb, name, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (verb === undefined) return { lines: statusLines(runtime.model, runtime.position, now()) };
      if (verb !== 'event' || name === undefined || rest.length > 0) {
        return { lines: ['usage: /workflow  or  /workflow event <Name>'], isError: true };
      }
      const result = await runtime.applyExternal(name);
      return { lines: [result.message], isError: !result.ok };
    },
  };
}
