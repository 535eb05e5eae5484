import { contentToText, type Message, type ResumeEntry, type Tool } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { isValidSessionId } from '../../session/ids.js';
import { HttpError } from '../http/http-io.js';
import type { ImageInput } from '../../kernel/image-input.js';
import { imageDataChars, imagesOfUserContent } from './message-images.js';

/** What one POST /agent/run asks for, checked and reduced to what the kernel takes. */
export interface RunRequest {
  threadId: string;
  runId: string;
  /**
   * The turn's input: the last user message, or (when the messages end with tool messages) the
   * results of the frontend tool calls the last run left for the client.
   */
  input:
    | { kind: 'message'; text: string; messageId: string; images: ImageInput[] }
    | { kind: 'tool-results'; results: { toolCallId: string; content: string; isError?: boolean; messageId: string }[] }
    /** Answers to the questions the last run left open (AG-UI `resume`); the messages are history. */
    | { kind: 'resume' };
  /** Every message before the input, as the client holds the thread. */
  history: Message[];
  /** The images of the history's user messages, checked like the input's (a thread new to this server adopts them). */
  historyImages: ReadonlyMap<Message, ImageInput[]>;
  /** Tools the web page runs itself (frontend tools), offered to the model beside the agent's own. */
  tools: Tool[];
  /** The client's shared state, when it sent any. */
  state?: Record<string, unknown>;
  /**
   * An AG-UI 1.0 client (it sends `protocolVersion`): a run that stops to ask ends with an
   * interrupt, and `resume` answers it. Older clients get `result: {status: "input-required"}`.
   */
  interrupts: boolean;
  resume: ResumeEntry[];
}

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  errors?: SchemaIssue[][];
}

function fieldName(path: PropertyKey[]): string {
  if (path.length === 0) return 'the body';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}

const MISSING = /received undefined$/;

/** One sentence naming the field and what it should be, from one of zod's issues. */
function describeIssue(issue: SchemaIssue): string {
  const field = fieldName(issue.path);
  const alternatives = (issue.errors ?? []).map((branch) => branch[0]).filter((first): first is SchemaIssue => first !== undefined);
  if (issue.code === 'invalid_union' && alternatives.length > 0) {
    if (alternatives.every((alt) => MISSING.test(alt.message))) return `${field} is missing`;
    const expected = alternatives.map((alt) => alt.message.replace(/^Invalid input: /, '').replace(/, received .*$/, ''));
    return `${field}: ${expected.join(' or ')}`;
  }
  if (MISSING.test(issue.message)) return `${field} is missing`;
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** `a, b and c`. */
function listed(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Every problem of the body in one sentence, so a request typed by hand (curl) is fixed in one go:
 * the missing fields together (`threadId, runId and messages[0].id are missing`), then the rest.
 */
function describeIssues(issues: SchemaIssue[]): string {
  const sentences = issues.map(describeIssue);
  const missing = sentences.filter((sentence) => sentence.endsWith(' is missing')).map((sentence) => sentence.slice(0, -' is missing'.length));
  const others = sentences.filter((sentence) => !sentence.endsWith(' is missing'));
  const parts = missing.length === 0 ? [] : [`${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} missing`];
  return [...parts, ...new Set(others)].join('; ');
}

function shorten(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Frontend tool results: the tool messages that end the list, answering the last run's calls. */
function trailingToolMessages(messages: Message[]): Extract<Message, { role: 'tool' }>[] {
  const found: Extract<Message, { role: 'tool' }>[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== 'tool') break;
    found.unshift(message);
  }
  return found;
}

/** The turn's input and the history before it; every message's size was checked already (checkHistorySize). */
function turnInput(messages: Message[]): Pick<RunRequest, 'input' | 'history'> {
  const results = trailingToolMessages(messages);
  if (results.length > 0) {
    return {
      input: {
        kind: 'tool-results',
        results: results.map((m) => ({
          toolCallId: m.toolCallId,
          content: m.error ?? contentToText(m.content),
          ...(m.error !== undefined ? { isError: true } : {}),
          messageId: m.id,
        })),
      },
      history: messages.slice(0, messages.length - results.length),
    };
  }
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new HttpError(
      400,
      "messages ends with no user message: end it with the user's message (the turn's input), or with the tool messages answering the last run's frontend tool calls",
    );
  }
  const text = contentToText(last.content);
  const images = imagesOfUserContent(last.content, messages.length - 1);
  if (text.trim() === '' && images.length === 0) throw new HttpError(400, 'the last user message has no text and no image (text and image parts are read)');
  return { input: { kind: 'message', text, messageId: last.id, images }, history: messages.slice(0, -1) };
}

/**
 * Each history user message's images, checked as the input's are: one that is not an image is a
 * 400 naming its part, before anything is adopted.
 */
function historyImagesOf(history: readonly Message[]): Map<Message, ImageInput[]> {
  const found = new Map<Message, ImageInput[]>();
  history.forEach((message, index) => {
    if (message.role !== 'user') return;
    const images = imagesOfUserContent(message.content, index);
    if (images.length > 0) found.set(message, images);
  });
  return found;
}

/**
 * Every character a message carries: its content (parts as written, but for the images' data),
 * a tool result's error, an assistant's tool-call arguments.
 */
function messageChars(message: Message): number {
  const content: unknown = message.content;
  // An image's data is bounded by the image limit (image-input.ts), not by the message's characters.
  let chars = typeof content === 'string' ? content.length : content === undefined ? 0 : (JSON.stringify(content)?.length ?? 0) - imageDataChars(content);
  if (message.role === 'tool' && message.error !== undefined) chars += message.error.length;
  if (message.role === 'assistant') for (const call of message.toolCalls ?? []) chars += call.function.arguments.length;
  return chars;
}

/**
 * Every message a client sends is bounded, the new one and the history alike: a new thread adopts
 * the history into the session, so an unbounded one would be written to disk and held in memory.
 */
function checkHistorySize(messages: Message[], maxMessageChars: number): void {
  for (const [index, message] of messages.entries()) {
    const chars = messageChars(message);
    if (chars > maxMessageChars) {
      throw new HttpError(
        413,
        `messages[${index}] (${message.role}) is ${chars} characters; this server takes at most ${maxMessageChars} per message (--max-message-chars)`,
      );
    }
  }
}

/** How deep a client's shared state may nest: far beyond any page's, well within what merging it can walk. */
const MAX_STATE_DEPTH = 64;

/**
 * Where `value` first nests deeper than `max` levels (`.a.b[0]…`, shortened), or undefined. Walked
 * with a stack of its own, since the point is a value too deep for the call stack.
 */
function deeperThan(value: unknown, max: number): string | undefined {
  const pending: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined || next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return next.path.length > 60 ? `${next.path.slice(0, 60)}...` : next.path;
    for (const [key, child] of Object.entries(next.value)) {
      const path = next.path.length > 80 ? next.path : Array.isArray(next.value) ? `${next.path}[${key}]` : `${next.path}.${key}`;
      pending.push({ value: child, depth: next.depth + 1, path });
    }
  }
  return undefined;
}

/**
 * Checks a body against AG-UI's RunAgentInput and picks out the turn's input. Every refusal is an
 * HttpError naming the field, raised before anything touches the disk.
 */
export function parseRunInput(body: unknown, maxMessageChars: number): RunRequest {
  if (!isPlainObject(body)) throw new HttpError(400, 'the body is not an AG-UI RunAgentInput (a JSON object with threadId, runId and messages)');
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, `the body is not an AG-UI RunAgentInput: ${describeIssues(parsed.error.issues as SchemaIssue[])}`);
  const input = parsed.data;
  checkHistorySize(input.messages, maxMessageChars);
  // The thread id becomes a folder name: check its shape before it goes anywhere near the disk.
  if (!isValidSessionId(input.threadId)) {
    throw new HttpError(
      400,
      `threadId "${shorten(input.threadId)}" cannot name a session: use letters, digits, - and _ only, at most 128 characters, starting with a letter or digit`,
    );
  }
  const state: unknown = input.state;
  const tooDeep = deeperThan(state, MAX_STATE_DEPTH);
  if (tooDeep !== undefined) {
    throw new HttpError(400, `state is nested more than ${MAX_STATE_DEPTH} levels deep (at state${tooDeep}); send flatter state`);
  }
  const resume = input.resume ?? [];
  const turn = resume.length > 0 ? { input: { kind: 'resume' as const }, history: input.messages } : turnInput(input.messages);
  return {
    threadId: input.threadId,
    runId: input.runId,
    ...turn,
    historyImages: historyImagesOf(turn.history),
    interrupts: input.protocolVersion !== undefined,
    resume,
    tools: input.tools,
    // An empty object carries nothing to apply (clients send {} before they ever saw a snapshot).
    state: isPlainObject(state) && Object.keys(state).length > 0 ? state : undefined,
  };
}
