import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { runQuestionnaire } from '../questions/index.js';
import type { ServerConfig } from './config-schema.js';
import type { CallSeat } from './server-pool.js';

function contentText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => {
      const item = part as { type?: string; text?: string; mimeType?: string };
      return item.type === 'text' ? (item.text ?? '') : `[${item.type ?? 'content'}${item.mimeType ? `: ${item.mimeType}` : ''}]`;
    })
    .join('\n');
}

/** The server's messages as one prompt for a tool-less completion. */
function promptOf(params: CreateMessageRequestParams): string {
  return params.messages.map((message) => `${message.role}: ${contentText(message.content)}`).join('\n\n');
}

/**
 * A server's `sampling/createMessage`: answered by the agent's own model, without tools, only
 * when `.mcp.json` sets allowSampling for the server and the person says yes in the chat.
 */
export async function answerSampling(
  server: ServerConfig,
  params: CreateMessageRequestParams,
  seat: CallSeat | undefined,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  if (server.policy.allowSampling !== true) {
    throw new Error(
      `auggy does not let ${server.name} use the agent's model (set auggy.servers.${server.name}.allowSampling to true in .mcp.json to ask the person)`,
    );
  }
  if (!seat?.person.present()) throw new Error(`nobody is at the prompt to approve ${server.name}'s use of the agent's model, so it is refused`);
  const prompt = promptOf(params);
  const resume = seat.clock.hold();
  try {
    return await approveAndComplete(server, params, seat, signal, prompt);
  } finally {
    resume();
  }
}

async function approveAndComplete(
  server: ServerConfig,
  params: CreateMessageRequestParams,
  seat: CallSeat,
  signal: AbortSignal,
  prompt: string,
): Promise<CreateMessageResult> {
  const approval = await runQuestionnaire(
    {
      prompt: `${server.name} asks to use the agent's model${params.systemPrompt ? ` (instructions: ${params.systemPrompt.slice(0, 300)})` : ''} with:\n${prompt.slice(0, 1500)}`,
      fields: [{ name: 'allow', question: `Let ${server.name} use the agent's model for this?`, type: 'boolean' }],
    },
    seat.person,
    { signal: AbortSignal.any([signal, seat.signal]), emit: seat.emit, purpose: { kind: 'sampling', server: server.name } },
  );
  if (approval.status !== 'answered' || approval.answers.allow !== true) throw new Error(`the person did not allow ${server.name} to use the agent's model`);
  const reply = await seat.complete({ system: params.systemPrompt ?? '', prompt, signal: AbortSignal.any([signal, seat.signal]) });
  if (!reply.ok) throw new Error(`the agent's model failed: ${reply.error}`);
  return { role: 'assistant', content: { type: 'text', text: reply.text }, model: 'auggy-agent-model', stopReason: 'endTurn' };
}
