import { type Part, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import type { Conversation, ConversationTurn } from '../../kernel/conversation.js';
import type { TurnOutcome } from '../../kernel/events.js';
import { holdFloor, type FloorRun } from '../../kernel/hold-floor.js';
import type { Interrupt } from '../../kernel/interrupt.js';
import { SessionBusyError, StoreUnreachableError } from '../../session/session.js';
import type { ActiveRun, ThreadRegistry } from '../agui/thread-registry.js';
import { clientErrorMessage } from '../client-error.js';
import { STORE_DOWN } from '../http/store-down.js';
import { answersTurn, holdOpen, interruptRun, type InterruptRun } from '../interrupts/interrupt-run.js';
import { startFromMessage } from '../slash-command.js';
import { answersFromMessage } from './answers-from-message.js';
import { textPart } from '../../augments/a2a/a2a-parts.js';
import { messageImages, messageText } from './parts.js';
import { questionParts } from './question-message.js';
import { TaskEvents } from './task-events.js';
import type { SessionTaskStore } from './task-store.js';

export interface TurnExecutorOptions {
  tasks: SessionTaskStore;
  /** The server's threads: a task is the run of its context's thread, as an AG-UI run is, and uses its conversation. */
  threads: ThreadRegistry;
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

function endingOf(floor: FloorRun, interrupts: readonly Interrupt[]): Ending {
  // How the run ended: an augment's release (a goal's end) when it gave one, else its last turn.
  const result: TurnOutcome = { status: floor.status, message: floor.message, code: floor.code };
  switch (result.status) {
    case 'completed':
      // A goal's end is its sentence; a lone turn's reply is in its artifact.
      return floor.last.release
        ? { state: TaskState.TASK_STATE_COMPLETED, parts: [textPart(floor.last.release.message)] }
        : { state: TaskState.TASK_STATE_COMPLETED };
    case 'input-required':
      return {
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        parts: interrupts.length > 0 ? questionParts(interrupts) : [textPart(result.message ?? 'The agent needs more from you.')],
      };
    case 'canceled':
      return { state: TaskState.TASK_STATE_CANCELED, parts: [textPart('The task was canceled.')] };
    default: {
      const sentence = clientErrorMessage(result);
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
  /** The runs of the tasks executing in this process, by task id, so a cancel finds its run. */
  private readonly running = new Map<string, ActiveRun>();

  constructor(private readonly options: TurnExecutorOptions) {}

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const events = new TaskEvents(bus, request.taskId, request.contextId);
    events.started(request.task, request.userMessage);
    const started = Date.now();
    const end = (ending: Ending) => {
      events.status(ending.state, ending.parts);
      const why = ending.logged ? `: ${ending.logged}` : '';
      this.options.log(`a2a task ${request.taskId} on context ${request.contextId} ${TaskState[ending.state]}${why} (${Date.now() - started} ms)`);
    };
    // The thread's one run in this process, whichever protocol started it: GET /agent/thread reads
    // it as running, an AG-UI run on it waits, and shutdown lets it finish as it lets theirs.
    const claim = this.options.threads.claim(request.contextId);
    if (!claim) {
      end(refused(`another run is in progress on context ${request.contextId}; send the message again once it has ended`));
      return;
    }
    this.running.set(request.taskId, claim.run);
    try {
      end(await this.runTask(request, events, claim.run));
    } finally {
      // Let go in the same tick the final state went out: a caller that reads it may send again at once.
      this.running.delete(request.taskId);
      claim.release();
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

  private async runTask(request: RequestContext, events: TaskEvents, run: ActiveRun): Promise<Ending> {
    const { threads, tasks, log } = this.options;
    const { contextId, taskId } = request;
    let conversation: Conversation;
    try {
      conversation = await threads.conversation(contextId);
    } catch (error) {
      log(`a2a context ${contextId}: the session could not be opened: ${describe(error)}`);
      if (error instanceof StoreUnreachableError) return refused(STORE_DOWN);
      return refused(clientErrorMessage({ status: 'failed', code: 'session_error' }));
    }
    const unsubscribe = conversation.subscribe((event) => events.forward(event));
    try {
      return await conversation.asWriter(async () => {
        // A board write meanwhile goes through this run's conversation, as during an AG-UI run.
        run.conversation = conversation;
        const detach = tasks.attach(contextId, conversation.session);
        try {
          events.status(TaskState.TASK_STATE_WORKING);
          return await this.runTurn(conversation, request, events, run.controller.signal);
        } finally {
          detach();
        }
      });
    } catch (error) {
      if (error instanceof SessionBusyError) return refused(`another run is in progress on context ${contextId}; send the message again once it has ended`);
      log(`a2a task ${taskId}: ${describe(error)}`);
      return refused(clientErrorMessage({ status: 'failed', code: 'internal_error' }));
    } finally {
      run.conversation = undefined;
      unsubscribe();
      threads.keep(contextId, conversation);
    }
  }

  /**
   * The task's first turn (the caller's answers, a command's, or its message), then every turn an
   * augment continues it with (a goal's loop): the task holds the floor for them all, as an AG-UI run does.
   */
  private async runTurn(conversation: Conversation, request: RequestContext, events: TaskEvents, signal: AbortSignal): Promise<Ending> {
    const { contextId } = request;
    const warn = (line: string) => this.options.log(`a2a context ${contextId}: ${line}`);
    const waiting = request.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    const open = interruptRun(conversation.session, [], this.options.interruptWaitMs, warn);
    if (waiting) {
      // The caller's message on a task that asked: its parts answer the thread's open questions.
      const asking = interruptRun(conversation.session, answersFromMessage(request.userMessage, open.held), this.options.interruptWaitMs, warn);
      if (asking.plan.uncovered.length > 0) return stillOpen(asking);
      const answered = answersTurn(conversation, asking, { signal });
      if (answered) return this.finish(conversation, asking, answered, signal);
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
    // A message naming one of the agent's commands (`/goal …`) runs it, as an AG-UI run's message does.
    const started = await startFromMessage(conversation, text, { images: images.images });
    if (!started.first) {
      // A command that starts nothing is its own answer: its lines are the task's.
      const { output } = started.command;
      return { state: output.isError ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED, parts: [textPart(output.lines.join('\n'))] };
    }
    const first = started.first;
    const said = started.command?.output.lines ?? [];
    if (said.length > 0) events.status(TaskState.TASK_STATE_WORKING, [textPart(said.join('\n'))]);
    return this.finish(conversation, open, () => first({ signal, person: open.person }), signal);
  }

  /** Runs `first` and the turns that continue it; the questions they leave open are held for the caller's next message. */
  private async finish(conversation: Conversation, asking: InterruptRun, first: () => Promise<ConversationTurn>, signal: AbortSignal): Promise<Ending> {
    const floor = await holdFloor(conversation, first, { signal, person: asking.person });
    const interrupts = await holdOpen(conversation, asking);
    return endingOf(floor, interrupts);
  }
  /** Why a new task cannot start on a thread that waits on answers, naming where to give them. */
  private async busyWith(contextId: string, ids: readonly string[]): Promise<string> {
    const waiting = (await this.options.tasks.inContext(contextId)).find((task) => task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED);
    if (waiting) return `context ${contextId} waits for the answer to task ${waiting.id}; send the answer with that taskId, or cancel that task first`;
    return `context ${contextId} has open questions (${ids.join(', ')}) from another client; answer or cancel them there first`;
  }
}
