import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { type SessionHandle, StoreUnreachableError } from '../../session/session.js';
import type { SessionStore } from '../../session/store.js';
import { STORE_DOWN } from '../http/store-down.js';
import { writeHeld } from '../interrupts/held-interrupts.js';

/** Set in a call's context when the store could not be reached during it, so the route answers 503. */
export const STORE_DOWN_STATE = 'auggy.storeDown';

const TASK_FILE_PREFIX = 'a2a-task-';
/** Task ids name state files: only this shape reaches the disk; any other is no task of ours. */
const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const DEFAULT_PAGE_SIZE = 50;

function taskFile(taskId: string): string {
  return `${TASK_FILE_PREFIX}${taskId}.json`;
}

function readTask(value: unknown): Task | undefined {
  try {
    return Task.fromJSON(value);
  } catch {
    return undefined;
  }
}

/**
 * A2A's tasks, kept in the session of their context (the auggy thread) as state files: they
 * survive a restart, and on the PostgreSQL store every replica reads and writes the same ones.
 * A task is found by its id alone through the store (`statesNamed`).
 */
export class SessionTaskStore implements TaskStore {
  /** The writer's handle of each context with a turn running in this process: saves go through it, in its order. */
  private readonly live = new Map<string, SessionHandle>();

  constructor(
    private readonly store: SessionStore,
    /** The operator's log: where the store is and what it said, which the caller is not told. */
    private readonly log: (line: string) => void,
  ) {}

  /** While a turn runs on `contextId`, its task is saved through the turn's own session handle. */
  attach(contextId: string, session: SessionHandle): () => void {
    this.live.set(contextId, session);
    return () => {
      if (this.live.get(contextId) === session) this.live.delete(contextId);
    };
  }

  save(task: Task, context?: ServerCallContext): Promise<void> {
    return this.reaching(context, () => this.saveTask(task));
  }

  load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    return this.reaching(context, () => this.loadTask(taskId));
  }

  list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
    return this.reaching(context, () => this.listTasks(params));
  }

  /**
   * A store that cannot be reached is the operator's to fix: the log gets its address and
   * words, the caller one sentence saying to retry (the SDK hands a thrown message on as is).
   */
  private async reaching<T>(context: ServerCallContext | undefined, act: () => Promise<T>): Promise<T> {
    try {
      return await act();
    } catch (error) {
      if (!(error instanceof StoreUnreachableError)) throw error;
      this.log(`a2a: ${error.message}`);
      context?.state.set(STORE_DOWN_STATE, true);
      // Still the store's condition, so the SDK, which logs what it catches, logs one line of it.
      throw new StoreUnreachableError(STORE_DOWN);
    }
  }

  private async saveTask(task: Task): Promise<void> {
    const canceled = task.status?.state === TaskState.TASK_STATE_CANCELED;
    const before = canceled ? await this.loadTask(task.id) : undefined;
    await this.withSession(task.contextId, async (session) => {
      await session.writeState(taskFile(task.id), Task.toJSON(task));
      // A task canceled while it waited on the caller lets go of its questions, whichever replica
      // canceled it, so the thread takes new messages again.
      if (before?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) await writeHeld(session, []);
    });
  }

  private async loadTask(taskId: string): Promise<Task | undefined> {
    if (!TASK_ID_PATTERN.test(taskId)) return undefined;
    const [found] = await this.store.statesNamed(taskFile(taskId));
    return found === undefined ? undefined : readTask(found.value);
  }

  /** The tasks of one context, newest first. */
  async inContext(contextId: string): Promise<Task[]> {
    return (await this.all()).filter((task) => task.contextId === contextId);
  }

  private async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    const matching = (await this.all())
      .filter((task) => !params.contextId || task.contextId === params.contextId)
      .filter((task) => !params.status || task.status?.state === params.status)
      .filter((task) => !params.statusTimestampAfter || (task.status?.timestamp ?? '') > params.statusTimestampAfter);
    const pageSize = params.pageSize && params.pageSize > 0 ? Math.min(params.pageSize, 100) : DEFAULT_PAGE_SIZE;
    const start = Number.parseInt(params.pageToken || '0', 10) || 0;
    const page = matching.slice(start, start + pageSize).map((task) => ({
      ...task,
      artifacts: params.includeArtifacts ? task.artifacts : [],
      history: params.historyLength === undefined ? task.history : params.historyLength === 0 ? [] : task.history.slice(-params.historyLength),
    }));
    const next = start + pageSize < matching.length ? String(start + pageSize) : '';
    return { tasks: page, nextPageToken: next, pageSize, totalSize: matching.length };
  }

  private async all(): Promise<Task[]> {
    const tasks = (await this.store.statesNamed(TASK_FILE_PREFIX)).flatMap((state) => readTask(state.value) ?? []);
    return tasks.sort((a, b) => (b.status?.timestamp ?? '').localeCompare(a.status?.timestamp ?? ''));
  }

  private async withSession(contextId: string, act: (session: SessionHandle) => Promise<void>): Promise<void> {
    const live = this.live.get(contextId);
    if (live) return act(live);
    // Nobody writes this thread here: change only its state files, as a board write beside a run does.
    const session = await this.store.open({ sessionId: contextId, createIfMissing: true, observer: true });
    try {
      await act(session);
      await session.flush();
    } finally {
      await session.close().catch(() => undefined);
    }
  }
}
