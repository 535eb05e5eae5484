import { InvalidPromptError, type LanguageModelV3Message, type LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { isSendableMessage } from './model-message-check.js';

type ToolResultPart = Extract<LanguageModelV3Message, { role: 'tool' }>['content'][number];
type UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];
type AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];

/**
 * What a message is, said for a person reading why a call was refused: "message 3 (a tool
 * message)". Damaged session files are where such a message comes from.
 */
function whichMessage(message: unknown, index: number): string {
  const role = typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined;
  return typeof role === 'string' ? `message ${index + 1} (a ${role} message)` : `message ${index + 1}`;
}

function refused(message: string): InvalidPromptError {
  return new InvalidPromptError({ prompt: undefined, message });
}

/** Checks each message once, then remembers it: a transcript's messages never change once made, and every round sends them all again. */
function checkMessages(messages: readonly ModelMessage[], checked: WeakSet<ModelMessage>): void {
  if (messages.length === 0) throw refused('there is no message to send the model; start the conversation with a user message');
  messages.forEach((message, index) => {
    if (checked.has(message)) return;
    if (!isSendableMessage(message)) {
      throw refused(
        `${whichMessage(message, index)} is not text, an image, a tool call or a tool result, so it cannot be sent; the session's events.jsonl may be damaged`,
      );
    }
    checked.add(message);
  });
}

function converted(message: ModelMessage): LanguageModelV3Message | undefined {
  switch (message.role) {
    case 'user': {
      if (typeof message.content === 'string') return { role: 'user', content: [{ type: 'text', text: message.content }] };
      const content: UserPart[] = [];
      // The check let through text and image parts only; an empty text says nothing and some servers refuse it.
      for (const part of message.content) {
        if (part.type === 'text' && part.text !== '') content.push({ type: 'text', text: part.text });
        else if (part.type === 'file' && part.data instanceof Uint8Array)
          content.push({ type: 'file', data: part.data, mediaType: part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) });
      }
      return { role: 'user', content };
    }
    case 'assistant': {
      if (typeof message.content === 'string') return { role: 'assistant', content: [{ type: 'text', text: message.content }] };
      const content: AssistantPart[] = [];
      for (const part of message.content) {
        if (part.type === 'text' && part.text !== '') content.push({ type: 'text', text: part.text });
        else if (part.type === 'tool-call')
          content.push({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, providerExecuted: part.providerExecuted });
      }
      return { role: 'assistant', content };
    }
    case 'tool': {
      const content: ToolResultPart[] = [];
      for (const part of message.content) {
        if (
          part.type === 'tool-result' &&
          (part.output.type === 'text' || part.output.type === 'error-text' || part.output.type === 'json' || part.output.type === 'error-json')
        ) {
          content.push({ type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output });
        }
      }
      return { role: 'tool', content };
    }
    default:
      return undefined;
  }
}

/**
 * Every tool call the model made must have its result before the next user message and by the
 * end: providers refuse a conversation with a call left open, so it is refused here, in words.
 */
function checkToolResults(prompt: LanguageModelV3Prompt): void {
  const open = new Set<string>();
  const complain = () => {
    const ids = [...open].join(', ');
    return refused(
      `tool call${open.size > 1 ? 's' : ''} ${ids} ${open.size > 1 ? 'have' : 'has'} no result in the conversation; every tool call needs its result before the model is called again`,
    );
  };
  for (const message of prompt) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call' && !part.providerExecuted) open.add(part.toolCallId);
    } else if (message.role === 'tool') {
      for (const part of message.content) if (part.type === 'tool-result') open.delete(part.toolCallId);
    } else if (open.size > 0) {
      throw complain();
    }
  }
  if (open.size > 0) throw complain();
}

/**
 * The conversation in the shape `LanguageModelV3.doStream` takes: the system prompt first, each
 * message's content as parts, and the results of one batch of tool calls, which the kernel keeps
 * one message apiece, joined into one tool message as providers expect them.
 */
export function toLanguageModelPrompt(system: string, messages: readonly ModelMessage[], checked: WeakSet<ModelMessage>): LanguageModelV3Prompt {
  checkMessages(messages, checked);
  const prompt: LanguageModelV3Prompt = [{ role: 'system', content: system }];
  for (const message of messages) {
    const made = converted(message);
    if (made === undefined) continue;
    const last = prompt[prompt.length - 1];
    if (made.role === 'tool') {
      if (made.content.length === 0) continue;
      if (last.role === 'tool') {
        last.content.push(...made.content);
        continue;
      }
    }
    prompt.push(made);
  }
  checkToolResults(prompt);
  return prompt;
}
