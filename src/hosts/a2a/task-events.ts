import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { KernelEvent } from '../../kernel/events.js';
import { textPart } from '../../augments/a2a/a2a-parts.js';
import { agentMessage } from './parts.js';

/**
 * What one execution of a task tells the caller, on the SDK's event bus: the task first, then
 * its status as the turn goes (tool calls as working messages), the reply as it streams (one
 * artifact per reply message, appended chunk by chunk), and one final state.
 */
export class TaskEvents {
  /** The text of each reply message so far: the next chunk is appended to its artifact. */
  private readonly replies = new Map<string, string>();

  constructor(
    private readonly bus: ExecutionEventBus,
    readonly taskId: string,
    readonly contextId: string,
  ) {}

  /** The task as this execution starts it: a new one, or the one the caller's message continues. */
  started(previous: Task | undefined, userMessage: Message): void {
    this.bus.publish(
      AgentEvent.task({
        id: this.taskId,
        contextId: this.contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: previous?.artifacts ?? [],
        history: previous?.history ?? [userMessage],
        metadata: previous?.metadata ?? {},
      }),
    );
  }

  status(state: TaskState, parts?: Part[]): void {
    const message = parts === undefined ? undefined : agentMessage(this.taskId, this.contextId, parts);
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }

  /** The kernel's events of the turn, as the caller sees them while it runs. */
  forward(event: KernelEvent): void {
    if (event.type === 'TEXT_MESSAGE_CONTENT') this.replyChunk(event.messageId, event.delta);
    else if (event.type === 'TEXT_MESSAGE_END') this.replyEnd(event.messageId);
    else if (event.type === 'TOOL_CALL_START') this.status(TaskState.TASK_STATE_WORKING, [textPart(`calling ${event.toolCallName}`)]);
  }

  private replyChunk(messageId: string, delta: string): void {
    if (delta === '') return;
    const sofar = this.replies.get(messageId);
    this.replies.set(messageId, (sofar ?? '') + delta);
    this.artifact(messageId, delta, { append: sofar !== undefined, lastChunk: false });
  }

  /** The whole reply as one text part, in place of its chunks: the task keeps it so, as GetTask shows it. */
  private replyEnd(messageId: string): void {
    const text = this.replies.get(messageId);
    if (text === undefined) return;
    this.artifact(messageId, text, { append: false, lastChunk: true });
  }

  private artifact(messageId: string, text: string, chunk: { append: boolean; lastChunk: boolean }): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: { artifactId: `reply-${messageId}`, name: 'reply', description: '', parts: [textPart(text)], metadata: undefined, extensions: [] },
        ...chunk,
        metadata: undefined,
      }),
    );
  }
}
