import { systemLineOf, type KernelEvent } from '../../kernel/events.js';
import type { TurnResult } from '../../kernel/turn-loop.js';
import { isShownAsReply, personFacingArgs } from '../person-facing.js';
import { createQuestionNarrator } from '../question-text.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

export interface Writers {
  out(text: string): void;
  err(text: string): void;
  /** Colour only when stderr is a terminal. */
  colour: boolean;
}

function dim(text: string, colour: boolean): string {
  return colour ? `\u001b[2m${text}\u001b[22m` : text;
}

function shorten(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export interface TextEventWriter {
  onEvent(event: KernelEvent): void;
  /** Writes to stderr, ending the reply's line on stdout first so the two never share a line. */
  err(text: string): void;
  endsWithNewline(): boolean;
}

/**
 * Text mode: the assistant's words on stdout as they stream, questions the agent asked too
 * (nobody can answer them here, and the reader should still see them), everything else on stderr.
 */
export function textEventWriter(w: Writers): TextEventWriter {
  const toolNames = new Map<string, string>();
  const toolArgs = new Map<string, string>();
  const narrate = createQuestionNarrator();
  let last = '\n';
  const out = (text: string) => {
    if (text === '') return;
    w.out(text);
    last = text;
  };
  const err = (text: string) => {
    if (!last.endsWith('\n')) out('\n');
    w.err(text);
  };
  /** A block of its own on stdout, as a separate message of the reply. */
  const paragraph = (text: string) => {
    if (!last.endsWith('\n')) out('\n');
    out(`${text}\n`);
  };
  return {
    onEvent(event) {
      const narrated = narrate(event);
      if (narrated !== undefined) paragraph(narrated);
      switch (event.type) {
        case 'TEXT_MESSAGE_START':
          if (!last.endsWith('\n')) out('\n');
          break;
        case 'TEXT_MESSAGE_CONTENT':
          out(event.delta);
          break;
        case 'TOOL_CALL_START':
          toolNames.set(event.toolCallId, event.toolCallName);
          break;
        case 'TOOL_CALL_ARGS':
          toolArgs.set(event.toolCallId, (toolArgs.get(event.toolCallId) ?? '') + event.delta);
          break;
        case 'TOOL_CALL_RESULT': {
          const name = toolNames.get(event.toolCallId) ?? 'tool';
          // The question of request_input is the reply itself; a line for the call would say it twice.
          if (isShownAsReply(name) && !event.isError) break;
          const mark = event.isError ? 'error' : 'ok';
          const args = personFacingArgs(name, toolArgs.get(event.toolCallId) ?? '');
          err(dim(`• ${name}(${shorten(args, 60)}) ${mark}: ${shorten(event.content)}\n`, w.colour));
          break;
        }
        case 'CUSTOM':
          {
            const line = systemLineOf(event);
            if (line !== undefined) err(`${line}\n`);
          }
          break;
        default:
          break;
      }
    },
    err,
    endsWithNewline: () => last.endsWith('\n'),
  };
}

export interface PrintSummary {
  status: TurnResult['status'];
  message?: string;
  text: string;
  sessionId: string;
  toolCalls: { id: string; name: string; input: unknown; result: string; isError: boolean }[];
  usage: TurnResult['usage'];
  /** Why the turn's last model step stopped: stop, length, tool-calls, content-filter, error, other. */
  finishReason: TurnResult['finishReason'];
  /** The kind of failure (the same codes serve's RUN_ERROR carries), when the turn failed or ran out of budget. */
  code?: TurnResult['code'];
  /** What the person is asked, for input-required: the interrupt objects serve sends a 1.0 client. */
  interrupts?: TurnResult['interrupts'];
  /** The context meter after the turn: tokens in use, and the window (engine.maxContextTokens) when stated. */
  context?: { used: number; limit?: number };
  /** What the tokens cost in US dollars, where the model's price is known (engine.pricing or auggy's table). */
  cost?: number;
  [augmentField: string]: unknown;
}

/** One turn of a run that kept the floor over several (a goal's), for `turns` in `--output json`. */
export function turnSummary(
  result: TurnResult & { runId: string; cost?: number },
): Pick<PrintSummary, 'status' | 'message' | 'text' | 'toolCalls' | 'usage' | 'code' | 'cost'> & { runId: string } {
  const { status, message, text, toolCalls, usage, code, cost } = summarize(result, '', {});
  return {
    runId: result.runId,
    status,
    ...(message !== undefined ? { message } : {}),
    text,
    toolCalls,
    usage,
    ...(cost !== undefined ? { cost } : {}),
    ...(code !== undefined ? { code } : {}),
  };
}

export function summarize(result: TurnResult & { cost?: number }, sessionId: string, augmentFields: Record<string, unknown>): PrintSummary {
  return {
    status: result.status,
    ...(result.message !== undefined ? { message: result.message } : {}),
    text: result.text,
    sessionId,
    toolCalls: result.toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.input, result: call.content, isError: call.isError })),
    usage: result.usage,
    ...(result.cost !== undefined ? { cost: result.cost } : {}),
    finishReason: result.finishReason,
    ...(result.code !== undefined ? { code: result.code } : {}),
    ...(result.interrupts !== undefined ? { interrupts: result.interrupts } : {}),
    ...(result.context !== undefined
      ? { context: { used: result.context.used, ...(result.context.limit !== undefined ? { limit: result.context.limit } : {}) } }
      : {}),
    ...augmentFields,
  };
}
