import { contentToText, type Message } from '@ag-ui/core';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { AdoptedMessage, Conversation } from '../../kernel/conversation.js';
import { imageRefusal, type ImageInput } from '../../kernel/image-input.js';
import { HttpError } from '../http/http-io.js';

function parseArguments(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A client's messages as model messages. System and developer messages are the client's framing
 * of its own app, not the agent's instructions (identity.md is), and reasoning or activity
 * messages are not conversation: those are left out.
 */
export function toModelMessages(
  history: readonly Message[],
  toolNames: ReadonlyMap<string, string> = new Map(),
  images: ReadonlyMap<Message, readonly ImageInput[]> = new Map(),
): AdoptedMessage[] {
  const names = new Map(toolNames);
  const out: AdoptedMessage[] = [];
  for (const message of history) {
    switch (message.role) {
      case 'user': {
        const text = contentToText(message.content);
        const carried = images.get(message) ?? [];
        if (text.trim() !== '' || carried.length > 0)
          out.push({ id: message.id, message: { role: 'user', content: text }, ...(carried.length > 0 ? { images: carried } : {}) });
        break;
      }
      case 'assistant': {
        const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
        const text = typeof message.content === 'string' ? message.content : message.content ? contentToText(message.content) : '';
        if (text) content.push({ type: 'text', text });
        for (const call of message.toolCalls ?? []) {
          names.set(call.id, call.function.name);
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) });
        }
        if (content.length > 0) out.push({ id: message.id, message: { role: 'assistant', content } });
        break;
      }
      case 'tool': {
        const toolName = names.get(message.toolCallId);
        // A result for a call nobody made cannot be sent to a model.
        if (toolName === undefined) break;
        const value = message.error ?? contentToText(message.content);
        out.push({
          id: message.id,
          message: {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: message.toolCallId,
                toolName,
                output: message.error !== undefined ? { type: 'error-text', value } : { type: 'text', value },
              },
            ],
          },
        });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** Ids a client message is known by: its own, and those of the tool calls it carries. */
function idsOf(message: Message): string[] {
  return [message.id, ...(message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [])];
}

/**
 * Squares the client's history with the session. Messages the session holds are recognised by
 * id; a session with no transcript adopts the whole history (a new server, a cleared folder);
 * messages after the last recognised one are the client's additions and are adopted too.
 * Their images are kept as the session's attachments, or refused (400) as the input's would be.
 * Resolves to how many messages were adopted.
 */
export async function reconcileHistory(
  conversation: Conversation,
  history: readonly Message[],
  images: ReadonlyMap<Message, readonly ImageInput[]> = new Map(),
): Promise<number> {
  if (history.length === 0) return 0;
  if (conversation.transcript().length === 0) return adopt(conversation, toModelMessages(history, new Map(), images));
  const known = conversation.knownMessageIds();
  const lastKnown = history.findLastIndex((message) => idsOf(message).some((id) => known.has(id)));
  const added = history.slice(lastKnown + 1).filter((message) => !idsOf(message).some((id) => known.has(id)));
  // Without any message in common the histories are two different threads; the session's stands.
  if (lastKnown < 0 || added.length === 0) return 0;
  const toolNames = new Map(conversation.openToolCalls().map((call) => [call.toolCallId, call.toolName]));
  return adopt(conversation, toModelMessages(added, toolNames, images));
}

async function adopt(conversation: Conversation, adopted: AdoptedMessage[]): Promise<number> {
  // A model that takes no images refuses them here as it would the run's own, before anything is kept.
  for (const item of adopted) {
    const refused = imageRefusal(item.images ?? [], conversation.agent.engine.vision);
    if (refused !== undefined) throw new HttpError(400, `the client's history carries images: ${refused}`);
  }
  await conversation.adoptHistory(adopted);
  return adopted.length;
}
