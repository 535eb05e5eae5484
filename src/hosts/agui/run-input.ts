import { contentToText, type Message, type ResumeEntry, type Tool } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { isValidSessionId } from '../../session/ids.js';
import { HttpError } from '../http/http-io.js';

/** What one POST /agent/run asks for, checked and reduced to what the kernel takes. */
export interface RunRequest {
  threadId: string;
  runId: string;
  /**
   * The turn's input: the last user message, or (when the messages end with tool messages) the
   * results of the frontend tool calls the last run left for the client.
   */
  input:
    | { kind: 'message'; text: string; messageId: string }
    | { kind: 'tool-results'; results: { toolCallId: string; content: string; isError?: boolean; messageId: string }[] }
    /** Answers to the questions the last run left open (AG-UI `resume`); the messages are history. */
    | { kind: 'resume' };
  /** Every message before the input, as the client holds the thread. */
  history: Message[];
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

/** One sentence naming the field and what it should be, from zod's first issue. */
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

function turnInput(messages: Message[], maxMessageChars: number): Pick<RunRequest, 'input' | 'history'> {
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
  if (text.trim() === '') throw new HttpError(400, 'the last user message has no text (only text content is read)');
  if (text.length > maxMessageChars) {
    throw new HttpError(413, `the user message is ${text.length} characters; this server takes at most ${maxMessageChars} (--max-message-chars)`);
  }
  return { input: { kind: 'message', text, messageId: last.id }, history: messages.slice(0, -1) };
}

/**
 * Checks a body against AG-UI's RunAgentInput and picks out the turn's input. Every refusal is an
 * HttpError naming the field, raised before anything touches the disk.
 */
export function parseRunInput(body: unknown, maxMessageChars: number): RunRequest {
  if (!isPlainObject(body)) throw new HttpError(400, 'the body is not an AG-UI RunAgentInput (a JSON object with threadId, runId and messages)');
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const [first] = parsed.error.issues as SchemaIssue[];
    throw new HttpError(400, `the body is not an AG-UI RunAgentInput: ${describeIssue(first)}`);
  }
  const input = parsed.data;
  // The thread id becomes a folder name: check its shape before it goes anywhere near the disk.
  if (!isValidSessionId(input.threadId)) {
    throw new HttpError(
      400,
      `threadId "${shorten(input.threadId)}" cannot name a session: use letters, digits, - and _ only, at most 128 characters, starting with a letter or digit`,
    );
  }
  const state: unknown = input.state;
  const resume = input.resume ?? [];
  return {
    threadId: input.threadId,
    runId: input.runId,
    ...(resume.length > 0 ? { input: { kind: 'resume' as const }, history: input.messages } : turnInput(input.messages, maxMessageChars)),
    interrupts: input.protocolVersion !== undefined,
    resume,
    tools: input.tools,
    // An empty object carries nothing to apply (clients send {} before they ever saw a snapshot).
    state: isPlainObject(state) && Object.keys(state).length > 0 ? state : undefined,
  };
}
