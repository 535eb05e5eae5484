import { type Part, type Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { z } from 'zod';
import { defineTool, type KernelTool, type ToolResult, toolError } from '../../kernel/tool.js';
import { askThePerson } from './ask-person.js';
import type { RemoteAgentConfig } from './config-schema.js';
import { textPart } from './a2a-parts.js';
import { replyOf, request, textsOf } from './remote-parts.js';
import type { WaitingCalls } from './waiting-calls.js';

/** Rounds of question and answer one call may take before it stops asking. */
const MAX_ROUNDS = 8;

const inputSchema = z.object({
  message: z.string().trim().min(1, 'say what you ask the agent').max(20_000),
});

/** The remote agent as this conversation knows it: its client, once connected, and the thread it keeps there. */
export interface RemoteAgent {
  config: RemoteAgentConfig;
  connect(): Promise<Client>;
  /** The remote context (its thread) this conversation's calls continue. */
  contextId?: string;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function done(agent: string, task: Task): ToolResult {
  return { content: JSON.stringify({ status: 'completed', agent, reply: replyOf(task) }) };
}

async function send(client: Client, parts: Parameters<typeof request>[0], on: Parameters<typeof request>[1]): Promise<Task> {
  const result = await client.sendMessage(request(parts, on));
  if ('status' in result) return result;
  // A bare message is the whole answer: read as a task that completed with it.
  return {
    id: '',
    contextId: result.contextId,
    status: undefined,
    artifacts: [{ artifactId: 'message', name: '', description: '', parts: result.parts, metadata: undefined, extensions: [] }],
    history: [],
    metadata: undefined,
  };
}

/** Where the remote task stands when the person here must answer it. */
interface Asking {
  taskId: string;
  contextId: string;
  parts: Part[];
  round: number;
}

/**
 * `a2a_<name>`: sends the model's message to a remote A2A agent and waits for its task to end.
 * When the agent asks (input-required), the person here is asked and the answer goes back on
 * the same task, until it completes; nobody there cancels the remote task and says so. Where
 * the person answers in a later run, the call waits with the task kept in the session, and the
 * run that brings the answer carries that task on.
 */
export function remoteAgentTool(remote: RemoteAgent, waiting: WaitingCalls): KernelTool {
  const { name, url } = remote.config;
  const description =
    remote.config.description ??
    `Ask the agent "${name}" (A2A, ${url}) to do something and get its reply. If it has a question, the person here is asked and the answer is sent back to it.`;
  return defineTool({
    name: `a2a_${name}`,
    description,
    inputSchema,
    async execute({ message }, ctx) {
      let client: Client;
      let asking: Asking | undefined = waiting.get(ctx.toolCallId);
      let task: Task | undefined;
      try {
        client = await remote.connect();
        if (!asking) task = await send(client, [textPart(message)], { contextId: remote.contextId });
      } catch (error) {
        return toolError(`The agent ${name} at ${url} could not be reached: ${describe(error)}`);
      }
      for (let round = asking?.round ?? 0; ; round++) {
        if (task) {
          if (task.contextId) remote.contextId = task.contextId;
          const state = task.status?.state;
          const said = textsOf(task.status?.message?.parts ?? []).join(' ');
          if (state === undefined || state === TaskState.TASK_STATE_COMPLETED) return done(name, task);
          if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
            const word = state === TaskState.TASK_STATE_CANCELED ? 'was canceled' : state === TaskState.TASK_STATE_REJECTED ? 'refused the task' : 'failed';
            return toolError(`The agent ${name} ${word}${said ? `: ${said}` : ''}`);
          }
          asking = { taskId: task.id, contextId: task.contextId, parts: task.status?.message?.parts ?? [], round };
        }
        if (!asking) throw new Error('a2a call with neither a task nor a waiting question');
        if (round >= MAX_ROUNDS) {
          await waiting.release(ctx.toolCallId);
          return toolError(`The agent ${name} kept asking after ${MAX_ROUNDS} answers; its task ${asking.taskId} is left waiting.`);
        }
        const answer = await askThePerson(name, asking.parts, ctx, `a2a_${ctx.toolCallId}_${round}`);
        if (answer.kind === 'pending') {
          await waiting.hold(ctx.toolCallId, asking);
          return { content: '', deferred: true };
        }
        await waiting.release(ctx.toolCallId);
        if (answer.kind === 'no-answer') {
          // Nobody answers here: the remote task must not hold its thread waiting.
          await client.cancelTask({ tenant: '', id: asking.taskId, metadata: undefined }).catch(() => undefined);
          return { content: JSON.stringify({ status: 'no-answer', reason: answer.reason, agent: name, question: answer.question }) };
        }
        try {
          task = await send(client, answer.parts, { taskId: asking.taskId, contextId: asking.contextId });
        } catch (error) {
          return toolError(`The agent ${name} at ${url} could not be reached with the answer: ${describe(error)}`);
        }
      }
    },
  });
}
