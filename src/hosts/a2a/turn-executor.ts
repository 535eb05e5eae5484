import { type Part, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Conversation } from '../../kernel/conversation.js';
import type { Interrupt } from '../../kernel/interrupt.js';
import type { TurnResult } from '../../kernel/turn-loop.js';
import type { ModelBuilder } from '../../model/model-cache.js';
import { SessionBusyError, StoreUnreachableError } from '../../session/session.js';
import type { SessionStore } from '../../session/store.js';
import { clientErrorMessage } from '../client-error.js';
import { STORE_DOWN } from '../http/store-down.js';
import { answersTurn, holdOpen, interruptRun, type InterruptRun } from '../interrupts/interrupt-run.js';
import type { AgentTarget } from '../open-conversation.js';
import { answersFromMessage } from './answers-from-message.js';
import { messageImages, messageText, textPart } from './parts.js';
import { questionParts } from './question-message.js';
import { TaskEvents } from './task-events.js';
import type { SessionTaskStore } from './task-store.js';

export interface TurnExecutorOptions {
  target: AgentTarget;
  store: SessionStore;
  tasks: SessionTaskStore;
  models: ModelBuilder;
  maxMessageChars: number;
  /** How long a question the task leaves open waits for its answer; undefined waits as long as it takes. */
  interruptWaitMs?: number;
  log(line: string): void;
}

/** How a task's execution ends: its state, and the status message the caller reads. */
interface Ending {
  state: TaskState;
  parts?: Part[];
  /** For the operator's log: the whole reason, which the caller reads only in its short form. */
  logged?: string;
}

/** A task running in this process: how to stop it, and when it has stopped. */
export interface RunningTask {
  controller: AbortController;
  settled: Promise<void>;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function refused(sentence: string): Ending {
  return { state: TaskState.TASK_STATE_FAILED, parts: [textPart(sentence)], logged: sentence };
}

/** Some questions got no answer: nothing runs, and the task asks for those again. */
function stillOpen(asking: InterruptRun): Ending {
  const open = new Set(asking.plan.uncovered);
  const interrupts = asking.held.filter((item) => open.has(item.interrupt.id)).map((item) => item.interrupt);
  return {
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    parts: [textPart('Answer each open question: the last message left some unanswered.'), ...questionParts(interrupts)],
  };
}

function endingOf(result: TurnResult, interrupts: readonly Interrupt[]): Ending {
  switch (result.status) {
    case 'completed':
      return { state: TaskState.TASK_STATE_COMPLETED };
    case 'input-required':
      return {
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        parts: interrupts.length > 0 ? questionParts(interrupts) : [textPart(result.message ?? 'The agent needs more from you.')],
      };
    case 'canceled':
      return { state: TaskState.TASK_STATE_CANCELED, parts: [textPart('The task was canceled.')] };
    default: {
      const sentence = clientErrorMessage({ status: result.status, code: result.code, message: result.message });
      return { state: TaskState.TASK_STATE_FAILED, parts: [textPart(sentence)], logged: result.message ?? sentence };
    }
  }
}

/**
 * The SDK's AgentExecutor for an auggy agent: a task is one turn of the thread its contextId
 * names. An input-required task waits on the thread's held questions (the same ones an AG-UI
 * client answers with resume); the caller's next message on the task answers them, and the turn
 * carries on. The thread's one writer keeps a task, and its thread, from running twice at once.
 */
export class TurnExecutor implements AgentExecutor {
  private readonly running = new Map<string, RunningTask>();

  constructor(private readonly options: TurnExecutorOptions) {}

  /** The tasks running in this process now. */
  runs(): RunningTask[] {
    return [...this.running.values()];
  }

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const events = new TaskEvents(bus, request.taskId, request.contextId);
    events.started(request.task, request.userMessage);
    let done!: () => void;
    const run: RunningTask = { controller: new AbortController(), settled: new Promise((resolve) => (done = resolve)) };
    this.running.set(request.taskId, run);
    const started = Date.now();
    try {
      const ending = await this.runTask(request, events, run.controller.signal);
      events.status(ending.state, ending.parts);
      const why = ending.logged ? `: ${ending.logged}` : '';
      this.options.log(`a2a task ${request.taskId} on context ${request.contextId} ${TaskState[ending.state]}${why} (${Date.now() - started} ms)`);
    } finally {
      this.running.delete(request.taskId);
      done();
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.running.get(taskId);
    // A running turn stops at its next step and ends the task canceled itself.
    if (run) {
      run.controller.abort(new Error('the caller canceled the task'));
      return;
    }
    // A task waiting on the caller: nothing runs; the store lets go of its questions as it saves this.
    const task = await this.options.tasks.load(taskId);
    if (!task) return;
    new TaskEvents(bus, task.id, task.contextId).status(TaskState.TASK_STATE_CANCELED, [textPart('The task was canceled.')]);
  };

  private async runTask(request: RequestContext, events: TaskEvents, signal: AbortSignal): Promise<Ending> {
    const { target, store, tasks, log } = this.options;
    const { contextId, taskId } = request;
    let session: Awaited<ReturnType<SessionStore['open']>>;
    try {
      session = await store.open({ sessionId: contextId, createIfMissing: true });
    } catch (error) {
      log(`a2a context ${contextId}: the session could not be opened: ${describe(error)}`);
      if (error instanceof StoreUnreachableError) return refused(STORE_DOWN);
      return refused(clientErrorMessage({ status: 'failed', code: 'session_error' }));
    }
    const conversation = await Conversation.open({
      agent: target.agent,
      augmentTypes: target.augmentTypes,
      modelSpec: target.modelSpec,
      session,
      models: this.options.models,
      store,
      host: target.host,
      warn: (message) => log(`warning: a2a context ${contextId}: ${message}`),
    });
    const unsubscribe = conversation.subscribe((event) => events.forward(event));
    try {
      return await conversation.asWriter(async () => {
        const detach = tasks.attach(contextId, session);
        try {
          events.status(TaskState.TASK_STATE_WORKING);
          return await this.runTurn(conversation, request, signal);
        } finally {
          detach();
        }
      });
    } catch (error) {
      if (error instanceof SessionBusyError) return refused(`another run is in progress on context ${contextId}; send the message again once it has ended`);
      log(`a2a task ${taskId}: ${describe(error)}`);
      return refused(clientErrorMessage({ status: 'failed', code: 'internal_error' }));
    } finally {
      unsubscribe();
      await session.close().catch(() => undefined);
    }
  }

  private async runTurn(conversation: Conversation, request: RequestContext, signal: AbortSignal): Promise<Ending> {
    const { contextId } = request;
    const warn = (line: string) => this.options.log(`a2a context ${contextId}: ${line}`);
    const waiting = request.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    const open = interruptRun(conversation.session, [], this.options.interruptWaitMs, warn);
    if (waiting) {
      // The caller's message on a task that asked: its parts answer the thread's open questions.
      const asking = interruptRun(conversation.session, answersFromMessage(request.userMessage, open.held), this.options.interruptWaitMs, warn);
      if (asking.plan.uncovered.length > 0) return stillOpen(asking);
      const answered = answersTurn(conversation, asking, { signal });
      if (answered) return this.finish(conversation, asking, await answered());
      // Nothing was open any more (answered elsewhere, or expired): the message is a new turn's.
    } else if (open.plan.uncovered.length > 0) {
      return refused(await this.busyWith(contextId, open.plan.uncovered));
    }
    const text = messageText(request.userMessage);
    const images = messageImages(request.userMessage);
    if (!images.ok) return refused(images.why);
    if (text === '' && images.images.length === 0) return refused('the message has no text part; send what you ask as text');
    if (text.length > this.options.maxMessageChars)
      return refused(`the message is ${text.length} characters, over this server's limit of ${this.options.maxMessageChars}; send a shorter one`);
    const asking = interruptRun(conversation.session, [], this.options.interruptWaitMs, warn);
    return this.finish(conversation, asking, await conversation.runTurn(text, { signal, person: asking.person, images: images.images }));
  }

  private async finish(conversation: Conversation, asking: InterruptRun, result: TurnResult): Promise<Ending> {
    const interrupts = await holdOpen(conversation, asking);
    return endingOf(result, interrupts);
  }

  /** Why a new task cannot start on a thread that waits on answers, naming where to give them. */
  private async busyWith(contextId: string, ids: readonly string[]): Promise<string> {
    const waiting = (await this.options.tasks.inContext(contextId)).find((task) => task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED);
    if (waiting) return `context ${contextId} waits for the answer to task ${waiting.id}; send the answer with that taskId, or cancel that task first`;
    return `context ${contextId} has open questions (${ids.join(', ')}) from another client; answer or cancel them there first`;
  }
}
