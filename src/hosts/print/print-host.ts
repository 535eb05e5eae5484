import { EXIT, exitCodeForStatus } from '../exit-codes.js';
import { SYSTEM_LINE_EVENT, type KernelEvent } from '../../kernel/events.js';
import type { Conversation } from '../../kernel/conversation.js';
import { createQuestionNarrator, textMessageEvents } from '../question-text.js';
import { summarize, systemLineText, textEventWriter, type OutputFormat, type Writers } from './print-output.js';

/** Why the signal aborted: the person's Ctrl+C, or a SIGTERM (CI stopping a job on timeout). */
export class Interrupted extends Error {
  constructor(readonly by: 'SIGINT' | 'SIGTERM') {
    super(by === 'SIGTERM' ? 'stopped by SIGTERM' : 'interrupted');
  }
}

export interface PrintOptions {
  conversation: Conversation;
  message: string;
  format: OutputFormat;
  writers: Writers;
  signal: AbortSignal;
  /** The command that answers the session's question, as the person types it from here. */
  answerCommand(sessionId: string): string;
}

/** Runs one turn without a TUI and reports it in the chosen format; resolves to the exit code. */
export async function runPrintTurn(options: PrintOptions): Promise<number> {
  const { conversation, writers: w, format } = options;
  const text = textEventWriter(w);
  const narrate = createQuestionNarrator();
  // What augments say after the loop ends (user ask evaluations) belongs to the turn: as serve does,
  // the terminal event is held and goes out after them, just before RESULT.
  let terminal: KernelEvent | undefined;
  const unsubscribe = conversation.subscribe((event) => {
    if (format === 'stream-json') {
      if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') terminal = event;
      else w.out(`${JSON.stringify(event)}\n`);
      // A question also reads as an assistant message, for consumers that only show text.
      const narrated = narrate(event);
      if (narrated !== undefined) for (const extra of textMessageEvents(narrated)) w.out(`${JSON.stringify(extra)}\n`);
    }
    if (format === 'text') text.onEvent(event);
    // System lines (user ask evaluations, workflow moves) reach stderr whatever the output format.
    else if (event.type === 'CUSTOM' && event.name === SYSTEM_LINE_EVENT) w.err(`${systemLineText(event.value)}\n`);
  });
  let result;
  try {
    result = await conversation.runTurn(options.message, { signal: options.signal });
  } finally {
    unsubscribe();
  }
  const summary = summarize(result, conversation.session.id, conversation.snapshot());
  const stoppedBy = result.status === 'canceled' && options.signal.reason instanceof Interrupted ? options.signal.reason.by : undefined;
  if (format === 'json') w.out(`${JSON.stringify(summary, null, 2)}\n`);
  if (format === 'stream-json') {
    if (terminal) w.out(`${JSON.stringify(terminal)}\n`);
    w.out(`${JSON.stringify({ type: 'RESULT', ...summary })}\n`);
  }
  if (format === 'text') {
    if (!text.endsWithNewline()) w.out('\n');
    switch (result.status) {
      case 'input-required':
        text.err(`waiting for your reply: answer with ${options.answerCommand(conversation.session.id)}\n`);
        break;
      case 'failed':
        text.err(`auggy: turn failed: ${result.message ?? 'unknown error'}\n`);
        break;
      case 'budget-exhausted':
        text.err(`auggy: ${result.message ?? 'the turn ran out of inference rounds'}\n`);
        break;
      case 'canceled':
        if (stoppedBy !== 'SIGTERM') text.err(`auggy: ${result.message ?? 'canceled'} (session ${conversation.session.id} is saved)\n`);
        break;
      case 'completed':
        break;
    }
  }
  if (stoppedBy === 'SIGTERM') {
    // Whatever the format, one line on stderr says what happened; stdout stays parseable.
    w.err(`auggy: stopped by SIGTERM; the partial reply is saved in session ${conversation.session.id}\n`);
    return EXIT.terminated;
  }
  return exitCodeForStatus(result.status);
}
