import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolResultParts } from './result-text.js';

/** Where the task's progress goes: the call's own onProgress. */
interface TaskProgress {
  onProgress(progress: { progress: number; total?: number; message?: string }): void;
}

/** How long a server keeps a task's result after it ends; the call reads it at once, so a minute is plenty. */
const TASK_TTL_MS = 60_000;

/**
 * Calls a tool that declares `execution.taskSupport: "required"` through the SDK's task API: the
 * call creates a task, whose status messages become progress, and whose result is the call's.
 * When the turn or the call's clock stops it, the task is canceled on the server too.
 */
export async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskProgress,
  signal: AbortSignal,
): Promise<ToolResultParts> {
  let taskId: string | undefined;
  let steps = 0;
  const cancel = () => {
    if (taskId) void client.experimental.tasks.cancelTask(taskId).catch(() => undefined);
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, undefined, {
      signal,
      task: { ttl: TASK_TTL_MS },
      onprogress: (progress) => options.onProgress(progress),
    });
    for await (const message of stream) {
      signal.throwIfAborted();
      switch (message.type) {
        case 'taskCreated':
          taskId = message.task.taskId;
          break;
        case 'taskStatus':
          if (message.task.statusMessage) options.onProgress({ progress: ++steps, message: message.task.statusMessage });
          break;
        case 'result':
          return message.result as ToolResultParts;
        case 'error':
          throw message.error;
      }
    }
    throw new Error(`the task for ${name} ended without a result`);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
