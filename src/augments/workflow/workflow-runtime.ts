import type { EmitEvent } from '../../kernel/events.js';
import { systemLineEvent } from '../../kernel/events.js';
import type { KernelTool } from '../../kernel/tool.js';
import type { SessionHandle } from '../../session/session.js';
import type { BatchDecision, HostInputResult, SettledToolCall } from '../types.js';
import { agentMoves, type StateDef, type WorkflowModel } from './pack-model.js';
import { workflowPromptBlock } from './prompt-block.js';
import { applyEvent, budgetProblem, type EventOutcome } from './transition.js';
import { TRANSITION_TOOL, createTransitionTool } from './transition-tool.js';
import { WORKFLOW_STATE_FILE, freshRunState, loadRunState, saveRunState, type RunState, type TransitionRecord } from './workflow-state.js';

/** CUSTOM event names, in events.jsonl and the event stream. */
export const TRANSITION_EVENT = 'workflow.transition';
export const STOPPED_EVENT = 'workflow.stopped';

export interface RuntimeOptions {
  model: WorkflowModel;
  session: SessionHandle;
  emit: EmitEvent;
  warn(message: string): void;
  /** augment.yaml `config.variables`: values for the pack's templates. */
  variables: Record<string, unknown>;
  now?: () => Date;
}

interface PendingEvent {
  event: string;
  context?: Record<string, unknown>;
  toolCallId: string;
}

function describeMove(record: TransitionRecord): string {
  const redirect = record.redirected ? `; ${record.redirected.target} reached max_visits (${record.redirected.maxVisits}), so ${record.to} instead` : '';
  return `workflow: ${record.from} → ${record.to} (${record.event}${record.initiator === 'external' ? ', external' : ''}${redirect})`;
}

/**
 * One session's workflow: where it stands, what the current state offers, and how a settled
 * tool batch or a host's event moves it. Every change is saved to workflow.json at once.
 */
export class WorkflowRuntime {
  readonly model: WorkflowModel;
  private run: RunState;
  private pending: PendingEvent | undefined;
  private readonly tools = new Map<string, KernelTool>();
  private readonly missingToolsWarned = new Set<string>();
  private readonly now: () => Date;

  constructor(private readonly options: RuntimeOptions) {
    this.model = options.model;
    this.now = options.now ?? (() => new Date());
    const loaded = loadRunState(options.session, this.model, options.warn, this.now());
    this.run = loaded.run;
    if (!loaded.saved) this.save();
  }

  get position(): Readonly<RunState> {
    return this.run;
  }

  get state(): StateDef {
    return this.model.states[this.run.state];
  }

  private save(): void {
    saveRunState(this.options.session, this.run, this.options.warn);
  }

  /** workflow__transition for the current state, when the agent may move it. */
  offeredTools(): KernelTool[] {
    const state = this.state;
    if (this.run.stopped !== undefined || this.run.complete || !agentMoves(state)) return [];
    let tool = this.tools.get(state.name);
    if (!tool) {
      tool = createTransitionTool(state, this.model.states, (request) => this.accept(request));
      this.tools.set(state.name, tool);
    }
    return [tool];
  }

  /** The state's prompt names the agent's tools it may use; everything else waits for another state. */
  filterTools(tools: KernelTool[]): KernelTool[] {
    const allowed = this.state.prompt?.tools ?? [];
    for (const name of allowed) {
      if (!tools.some((tool) => tool.name === name) && !this.missingToolsWarned.has(name)) {
        this.missingToolsWarned.add(name);
        this.options.warn(`workflow: state ${this.state.name} lists tool ${name}, which no enabled augment offers; it is left out`);
      }
    }
    return tools.filter((tool) => tool.name === TRANSITION_TOOL || allowed.includes(tool.name));
  }

  promptBlock(): string {
    return workflowPromptBlock(this.model, this.run, this.options.variables);
  }

  private accept(request: PendingEvent): string | undefined {
    if (this.pending) {
      return `A transition (${this.pending.event}) is already pending in this response; call ${TRANSITION_TOOL} once per response.`;
    }
    this.pending = request;
    return undefined;
  }

  /** A new message starts from a clean slate: nothing is pending from an interrupted batch. */
  onUserMessage(): void {
    this.pending = undefined;
  }

  private record(outcome: EventOutcome): void {
    if (outcome.kind === 'refused') return;
    this.run = outcome.run;
    this.save();
    if (outcome.kind === 'stopped') {
      this.options.emit({ type: 'CUSTOM', name: STOPPED_EVENT, value: { state: this.run.state, reason: outcome.message } });
      this.options.emit(systemLineEvent(`workflow stopped: ${outcome.message}`));
      return;
    }
    const { from, to, event, context, redirected, initiator } = outcome.record;
    this.options.emit({ type: 'CUSTOM', name: TRANSITION_EVENT, value: { from, to, event, context: context ?? {}, ...(redirected ? { redirected } : {}), initiator } });
    this.options.emit(systemLineEvent(describeMove(outcome.record)));
  }

  /** Commits the batch's transition, if any, and says whether the agent keeps the floor. */
  afterBatch(batch: SettledToolCall[]): BatchDecision | undefined {
    this.run = { ...this.run, toolCalls: this.run.toolCalls + batch.length };
    const pending = this.pending;
    this.pending = undefined;
    const now = this.now();
    if (!pending || !batch.some((call) => call.toolCallId === pending.toolCallId && !call.isError)) return this.checkBudget(now);
    const outcome = applyEvent(this.model, this.run, { event: pending.event, context: pending.context, initiator: 'agent', now });
    this.record(outcome);
    if (outcome.kind === 'refused') return undefined;
    if (outcome.kind === 'stopped') return { terminate: { status: 'budget-exhausted', message: outcome.message } };
    return this.afterAgentMove(outcome.target);
  }

  /** A batch without a move still spends tool calls and time: past a limit, the running workflow stops. */
  private checkBudget(now: Date): BatchDecision | undefined {
    const problem = this.run.stopped === undefined && !this.run.complete ? budgetProblem(this.model, this.run, now) : undefined;
    if (!problem) {
      this.save();
      return undefined;
    }
    this.record({ kind: 'stopped', message: problem, run: { ...this.run, stopped: problem } });
    return { terminate: { status: 'budget-exhausted', message: problem } };
  }

  /** RFC 0014 on an agent-initiated move: keep the floor only for a control: agent state the agent drives. */
  private afterAgentMove(target: StateDef): BatchDecision {
    const yieldTurn = (message?: string): BatchDecision => ({ terminate: message ? { status: 'completed', message } : { status: 'completed' } });
    if (target.terminal) return yieldTurn(`the workflow is complete (state ${target.name})`);
    if (target.orchestration === 'external' || target.orchestration === 'composition') return yieldTurn();
    return target.control === 'agent' ? { newRound: true } : yieldTurn();
  }

  /** An event from outside the model (--event, /workflow event): applied at once; control is not consulted. */
  applyExternal(event: string): HostInputResult {
    const outcome = applyEvent(this.model, this.run, { event, initiator: 'external', now: this.now() });
    this.record(outcome);
    if (outcome.kind === 'moved') return { ok: true, message: describeMove(outcome.record) };
    return { ok: false, message: `workflow: ${outcome.message}` };
  }

  /** `/clear`: the next conversation starts at the entry state. */
  reset(): void {
    this.options.session.removeState(WORKFLOW_STATE_FILE);
    this.run = freshRunState(this.model, this.now());
    this.pending = undefined;
  }
}
