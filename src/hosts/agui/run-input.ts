import { contentToText } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { isValidSessionId } from '../../session/ids.js';
import { HttpError } from './http-io.js';

/** What one POST /agent/run asks for, checked and reduced to what the kernel takes. */
export interface RunRequest {
  threadId: string;
  runId: string;
  /** The last user message: the turn's input. */
  text: string;
  /** The client's shared state, when it sent any. */
  state?: Record<string, unknown>;
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
  const lastUser = input.messages.findLast((message) => message.role === 'user');
  if (!lastUser) throw new HttpError(400, 'messages has no user message; the last user message is the turn\'s input');
  const text = contentToText(lastUser.content);
  if (text.trim() === '') throw new HttpError(400, 'the last user message has no text (only text content is read)');
  if (text.length > maxMessageChars) {
    throw new HttpError(413, `the user message is ${text.length} characters; this server takes at most ${maxMessageChars} (--max-message-chars)`);
  }
  const state: unknown = input.state;
  return {
    threadId: input.threadId,
    runId: input.runId,
    text,
    // An empty object carries nothing to apply (clients send {} before they ever saw a snapshot).
    state: isPlainObject(state) && Object.keys(state).length > 0 ? state : undefined,
  };
}
