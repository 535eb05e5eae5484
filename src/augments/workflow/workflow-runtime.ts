import { createHash } from 'node:crypto';
import type { EmitEvent } from '../../kernel/events.js';
import { systemLineEvent } from '../../kernel/events.js';
import { NOBODY } from '../../kernel/person.js';
import type { KernelTool } from '../../kernel/tool.js';
import type { SessionHandle } from '../../session/session.js';
import type { BatchDecision, CallSettings, HostInputResult, ReplyReviewer, SettledToolCall, TurnHookContext } from '../../kernel/augment.js';
import { assistantTexts, guardrailLine, promptGuardrails, runGuardrails, type Guardrail } from './guardrails.js';
import { GUARDRAIL_EVENT, type GuardrailEventValue } from './guardrail-event.js';
import { answersForTemplates, askPerson, mergeAnswers, renderedAsk } from './ask-state.js';
import { agentMoves, providesTool, type StateDef, type WorkflowModel } from './pack-model.js';
import { workflowPromptBlock } from './prompt-block.js';
import { templateValues } from './render-template.js';
import { applyEvent, budgetProblem, type EventOutcome } from './transition.js';
import { TRANSITION_TOOL, createTransitionTool } from './transition-tool.js';
import { mockKernelTool } from './pack-tools.js';
import { ARTIFACT_TOOL, artifactDef, createArtifactTool } from './artifact-tool.js';
import { WORKFLOW_STATE_FILE, freshRunState, loadRunState, saveRunState, type RunState, type TransitionRecord } from './workflow-state.js';

/** CUSTOM event names, in events.jsonl and the event stream. */
export const TRANSITION_EVENT = 'workflow.transition';
export const STOPPED_EVENT = 'workflow.stopped';
export const ARTIFACT_EVENT = 'workflow.artifact';

export interface RuntimeOptions {
  model: WorkflowModel;
  session: SessionHandle;
  emit: EmitEvent;
  warn(message: string): void;
  /** augment.yaml `config.variables`: values for the pack's templates. */
  variables: Record<string, unknown>;
  /** Where an HTTP tool's headers_from_env are read: the folder's .env over the process environment. */
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

interface PendingEvent {
  event: string;
  context?: Record<string, unknown> | string;
  toolCallId: string;
}

/**
 * Where the ask states ended up: resting in a state a model or the user moves, stopped, or
 * waiting in an ask state whose questions a later run answers (serve's AG-UI interrupts).
 */
type AsksSettled =
  | { kind: 'rested'; state: StateDef; moves: TransitionRecord[] }
  | { kind: 'stopped'; message: string; moves: TransitionRecord[] }
  | { kind: 'pending'; moves: TransitionRecord[] };

function describeMove(record: TransitionRecord): string {
  const redirect = record.redirected ? `; ${record.redirected.target} reached max_visits (${record.redirected.maxVisits}), so ${record.to} instead` : '';
  const who = record.initiator === 'external' ? ', external' : record.asked?.status === 'no-answer' ? `: ${record.asked.reason}` : '';
  return `workflow: ${record.from} → ${record.to} (${record.event}${who}${redirect})`;
}

/** A transition as the event stream, events.jsonl and `--output json` show it. */
export function transitionValue(record: TransitionRecord): Record<string, unknown> {
  const { from, to, event, context, redirected, initiator, asked } = record;
  return { from, to, event, context: context ?? {}, ...(redirected ? { redirected } : {}), initiator, ...(asked ? { asked } : {}) };
}

/** Nobody in reach: a host's event or a turn's start has no person to ask, so questions get no answer at once. */
function nobodyHook(emit: EmitEvent): TurnHookContext {
  return { person: NOBODY, signal: new AbortController().signal, emit };
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
  /** The pack's own mock tools: offered in every state whose prompt lists them (filterTools decides). */
  private readonly mockTools: KernelTool[];
  private readonly missingToolsWarned = new Set<string>();
  private artifactTool: KernelTool | undefined;
  /** Each state's runnable guardrails, read from its prompt's validators once. */
  private readonly guardrails = new Map<string, Guardrail[]>();
  private readonly now: () => Date;
  /** Settles once a fresh workflow's entry position is saved, or said not to be (a warning). */
  readonly started: Promise<void>;

  constructor(private readonly options: RuntimeOptions) {
    this.model = options.model;
    this.mockTools = options.model.mockTools.map((tool) => mockKernelTool(tool, options.env));
    this.now = options.now ?? (() => new Date());
    const loaded = loadRunState(options.session, this.model, options.warn, this.now());
    this.run = loaded.run;
    this.started = loaded.saved ? Promise.resolve() : this.save();
  }

  /**
   * Another writer changed workflow.json (a run on another replica moved the workflow): go on
   * from where it left it. Nothing is written back; a file that cannot be used is reported.
   */
  reload(): void {
    this.run = loadRunState(this.options.session, this.model, this.options.warn, this.now()).run;
    this.pending = undefined;
  }

  get position(): Readonly<RunState> {
    return this.run;
  }

  get state(): StateDef {
    return this.model.states[this.run.state];
  }

  private save(): Promise<void> {
    return saveRunState(this.options.session, this.run, this.options.warn);
  }

  /** workflow__transition for the current state, when the agent may move it. */
  offeredTools(): KernelTool[] {
    return [...this.transitionTools(), ...this.artifactTools(), ...this.mockTools];
  }

  /** workflow__set_artifact while the workflow runs, when the pack declares any artifact (as PromptKit registers it). */
  private artifactTools(): KernelTool[] {
    if (this.model.artifactNames.length === 0 || !this.running()) return [];
    this.artifactTool ??= createArtifactTool(this.model, (name, value) => this.setArtifact(name, value));
    return [this.artifactTool];
  }

  /** Writes an artifact at once and saves it, replacing or appending as its definition says. */
  private async setArtifact(name: string, value: string): Promise<string> {
    const mode = artifactDef(this.model, this.run.state, name)?.mode ?? 'replace';
    const next = mode === 'append' ? (this.run.artifacts[name] ?? '') + value : value;
    this.run = { ...this.run, artifacts: { ...this.run.artifacts, [name]: next } };
    await this.save();
    this.options.emit({ type: 'CUSTOM', name: ARTIFACT_EVENT, value: { name, mode, value: next } });
    return JSON.stringify({ status: 'artifact_set', artifact: name });
  }

  private transitionTools(): KernelTool[] {
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
      if (!tools.some((tool) => providesTool(tool.name, name)) && !this.missingToolsWarned.has(name)) {
        this.missingToolsWarned.add(name);
        this.options.warn(`workflow: state ${this.state.name} lists tool ${name}, which no enabled augment offers; it is left out`);
      }
    }
    return tools.filter((tool) => tool.name === TRANSITION_TOOL || tool.name === ARTIFACT_TOOL || allowed.some((name) => providesTool(tool.name, name)));
  }

  /** The current state's prompt `parameters`, applied to every model call it makes. */
  callSettings(): CallSettings | undefined {
    const parameters = this.state.prompt?.parameters;
    if (!parameters) return undefined;
    const settings: CallSettings = {
      ...(parameters.temperature !== undefined ? { temperature: parameters.temperature } : {}),
      ...(parameters.max_tokens !== undefined ? { maxOutputTokens: parameters.max_tokens } : {}),
    };
    return Object.keys(settings).length > 0 ? settings : undefined;
  }

  /**
   * The current state's guardrails (its prompt's validators), as the check of the next reply:
   * the first that triggers cuts or replaces it, says so in one line, and records it.
   */
  replyReviewer(): ReplyReviewer | undefined {
    const state = this.state;
    let guardrails = this.guardrails.get(state.name);
    if (!guardrails) {
      guardrails = promptGuardrails(state.prompt?.validators).guardrails;
      this.guardrails.set(state.name, guardrails);
    }
    if (guardrails.length === 0) return undefined;
    const running = guardrails;
    return (reply, transcript) => {
      const trigger = runGuardrails(running, reply, assistantTexts(transcript));
      if (!trigger) return undefined;
      const value: GuardrailEventValue = { state: state.name, validator: trigger.validator, explanation: trigger.explanation, action: trigger.action };
      return { text: trigger.text, line: guardrailLine(trigger), event: { name: GUARDRAIL_EVENT, value } };
    };
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

  /**
   * A new message starts from a clean slate: nothing is pending from an interrupted batch. A
   * workflow left in an ask state (the process ended mid-questionnaire) must not give a model a
   * person's state: it is settled first, with nobody in reach (the kernel hands augments the
   * person only after a tool batch).
   */
  async onUserMessage(): Promise<void> {
    this.pending = undefined;
    await this.settleAsks(nobodyHook(this.options.emit));
  }

  private async record(outcome: EventOutcome): Promise<void> {
    if (outcome.kind === 'refused') return;
    this.run = outcome.run;
    await this.save();
    if (outcome.kind === 'stopped') {
      this.options.emit({ type: 'CUSTOM', name: STOPPED_EVENT, value: { state: this.run.state, reason: outcome.message } });
      this.options.emit(systemLineEvent(`workflow stopped: ${outcome.message}`));
      return;
    }
    this.options.emit({ type: 'CUSTOM', name: TRANSITION_EVENT, value: transitionValue(outcome.record) });
    this.options.emit(systemLineEvent(describeMove(outcome.record)));
  }

  /**
   * Commits the batch's transition, if any, and says whether the agent keeps the floor. A move
   * into an ask state hands the turn to the person there and then, inside this hook: no model
   * round, no run events; their answer moves the workflow on and the state it lands in decides.
   */
  async afterBatch(batch: SettledToolCall[], hook: TurnHookContext): Promise<BatchDecision | undefined> {
    this.run = { ...this.run, toolCalls: this.run.toolCalls + batch.length };
    const pending = this.pending;
    this.pending = undefined;
    // Standing in an ask state after a batch means its questions were held open for a later run
    // (nothing else leaves the workflow there): this is the batch the answering run begins with.
    if (this.state.ask && this.running()) return this.afterAsks(await this.settleAsks(hook));
    const now = this.now();
    if (!pending || !batch.some((call) => call.toolCallId === pending.toolCallId && !call.isError)) return await this.checkBudget(now);
    const outcome = applyEvent(this.model, this.run, { event: pending.event, context: pending.context, initiator: 'agent', now });
    await this.record(outcome);
    if (outcome.kind === 'refused') return undefined;
    if (outcome.kind === 'stopped') return { terminate: { status: 'budget-exhausted', message: outcome.message } };
    return this.afterAsks(await this.settleAsks(hook));
  }

  /** The turn after the ask states: it waits on the person's answer, stops, or goes on as the state reached says. */
  private afterAsks(settled: AsksSettled): BatchDecision | undefined {
    // The question travels as the run's interrupt; it was said as it was asked.
    if (settled.kind === 'pending') return { terminate: { status: 'input-required' } };
    if (settled.kind === 'stopped') return { terminate: { status: 'budget-exhausted', message: settled.message } };
    return this.afterAgentMove(settled.state);
  }

  /** One id per visit of an ask state, the same in every run that asks it, unique in the thread. */
  private questionnaireId(): string {
    const visit = `${this.run.startedAt}/${this.run.transitions.length}/${this.run.state}`;
    return `q_wf_${createHash('sha256').update(visit).digest('hex').slice(0, 10)}`;
  }

  private running(): boolean {
    return this.run.stopped === undefined && !this.run.complete;
  }

  /** Stops the workflow where the ask states cannot go on; the moves made before stay made. */
  private async stopAsks(message: string, moves: TransitionRecord[]): Promise<AsksSettled> {
    await this.record({ kind: 'stopped', message, run: { ...this.run, stopped: message } });
    return { kind: 'stopped', message, moves };
  }

  /**
   * While the workflow stands in an ask state: ask the person, keep their answers, and fire
   * Answered or NoAnswer from that state, until it reaches a state a model or the user moves.
   */
  private async settleAsks(hook: TurnHookContext): Promise<AsksSettled> {
    const moves: TransitionRecord[] = [];
    // Nobody there (or a canceled turn) answers the same way every time: asking again would loop forever.
    const unanswerable = new Set<string>();
    for (let state = this.state; state.ask && this.running(); state = this.state) {
      if (unanswerable.has(state.name)) {
        return await this.stopAsks(
          `state ${state.name} would ask its questions again with nobody there to answer (NoAnswer leads back to it); give it max_visits with on_max_visits`,
          moves,
        );
      }
      const values = templateValues(undefined, this.options.variables, this.run.context, answersForTemplates(this.run.answers), this.run.artifacts);
      const spec = renderedAsk(state.ask, this.model.syntax, values);
      const asked = await askPerson(spec, hook, this.now, this.questionnaireId());
      if (asked.event === 'pending') return { kind: 'pending', moves };
      if ((asked.asked.status === 'no-answer' && asked.asked.reason === 'away') || hook.signal.aborted) unanswerable.add(state.name);
      // The person's time is theirs: it is kept out of max_wall_time_sec before the move is checked.
      this.run = { ...this.run, answers: mergeAnswers(this.run.answers, state.ask, asked.result), personMs: this.run.personMs + asked.personMs };
      if (!(asked.event in state.onEvent)) {
        const why = asked.asked.status === 'no-answer' ? `got no answer (${asked.asked.reason})` : 'was answered';
        return await this.stopAsks(`state ${state.name} ${why} and declares no ${asked.event} event to go on with`, moves);
      }
      const outcome = applyEvent(this.model, this.run, { event: asked.event, initiator: 'person', asked: asked.asked, now: this.now() });
      await this.record(outcome);
      if (outcome.kind === 'refused') return await this.stopAsks(outcome.message, moves);
      if (outcome.kind === 'stopped') return { kind: 'stopped', message: outcome.message, moves };
      moves.push(outcome.record);
    }
    if (this.run.stopped !== undefined) return { kind: 'stopped', message: this.run.stopped, moves };
    return { kind: 'rested', state: this.state, moves };
  }

  /** A batch without a move still spends tool calls and time: past a limit, the running workflow stops. */
  private async checkBudget(now: Date): Promise<BatchDecision | undefined> {
    const problem = this.run.stopped === undefined && !this.run.complete ? budgetProblem(this.model, this.run, now) : undefined;
    if (!problem) {
      await this.save();
      return undefined;
    }
    await this.record({ kind: 'stopped', message: problem, run: { ...this.run, stopped: problem } });
    return { terminate: { status: 'budget-exhausted', message: problem } };
  }

  /**
   * RFC 0014 on an agent-initiated move: keep the floor only for a control: agent state the agent
   * drives. Entering a terminal state ends the turn; when nothing was said yet, that state speaks
   * (one closing round, as PromptKit's terminal states do), so a turn never ends with no reply.
   */
  private afterAgentMove(target: StateDef): BatchDecision | undefined {
    const yieldTurn: BatchDecision = { terminate: { status: 'completed' } };
    if (target.terminal) {
      const message = `the workflow is complete (state ${target.name})`;
      return { close: { outcome: { status: 'completed', message }, fallback: `The workflow is complete (state ${target.name}).` } };
    }
    if (target.orchestration === 'external' || target.orchestration === 'composition') return yieldTurn;
    return target.control === 'agent' ? undefined : yieldTurn;
  }

  /** A pack's engine.budget.max_rounds raises the turn's bound on model rounds (RFC 0014: budget bounds agent loops). */
  roundLimit(): { rounds: number; source: string } | undefined {
    const rounds = this.model.budget.max_rounds;
    return rounds === undefined ? undefined : { rounds, source: `engine.budget.max_rounds of ${this.model.file}` };
  }

  /**
   * An event from outside the model (--event, /workflow event): applied at once; control is not
   * consulted. Into an ask state, its questions go to nobody (hosts hand augments no person here)
   * and its NoAnswer is taken at once, so the next turn starts in a state a model can run.
   */
  async applyExternal(event: string): Promise<HostInputResult> {
    const outcome = applyEvent(this.model, this.run, { event, initiator: 'external', now: this.now() });
    await this.record(outcome);
    if (outcome.kind !== 'moved') return { ok: false, message: `workflow: ${outcome.message}`, reason: outcome.message };
    const settled = await this.settleAsks(nobodyHook(this.options.emit));
    const lines = [outcome.record, ...settled.moves].map(describeMove);
    if (settled.kind === 'stopped') lines.push(`workflow stopped: ${settled.message}`);
    return { ok: true, message: lines.join('; ') };
  }

  /** `/clear`: the next conversation starts at the entry state. */
  async reset(): Promise<void> {
    await this.options.session.removeState(WORKFLOW_STATE_FILE).catch((error: unknown) => {
      this.options.warn(`workflow: ${WORKFLOW_STATE_FILE} could not be removed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.run = freshRunState(this.model, this.now());
    this.pending = undefined;
  }
}
