import { EXIT, exitCodeForStatus } from '../exit-codes.js';
import { systemLineOf, type KernelEvent } from '../../kernel/events.js';
import type { Conversation } from '../../kernel/conversation.js';
import { createQuestionNarrator, textMessageEvents } from '../question-text.js';
import { summarize, textEventWriter, turnSummary, type OutputFormat, type Writers } from './print-output.js';
import { holdFloor } from '../../kernel/hold-floor.js';
import type { ConversationTurn } from '../../kernel/conversation.js';
import { startFromMessage } from '../slash-command.js';
import type { ImageInput } from '../../kernel/image-input.js';

/** Why the signal aborted: the person's Ctrl+C, or a SIGTERM (CI stopping a job on timeout). */
export class Interrupted extends Error {
  constructor(readonly by: 'SIGINT' | 'SIGTERM') {
    super(by === 'SIGTERM' ? 'stopped by SIGTERM' : 'interrupted');
  }
}

export interface PrintOptions {
  conversation: Conversation;
  message: string;
  /** Images sent with the message (--attach). */
  images?: readonly ImageInput[];
  format: OutputFormat;
  writers: Writers;
  signal: AbortSignal;
  /** The command that answers the session's question, as the person types it from here. */
  answerCommand(sessionId: string): string;
}

/**
 * `--print "/goal <condition>"`: a message naming an augment's command runs the command; its
 * lines go to stderr, and a turn it starts runs as the message would. A command that starts
 * nothing is its own answer: its lines are the output, and the run ends with its exit code.
 */
async function startPrinted(options: PrintOptions): Promise<{ exit: number } | { first: () => Promise<ConversationTurn> }> {
  const { conversation, writers: w, format } = options;
  const started = await startFromMessage(conversation, options.message, { images: options.images });
  if (started.first) {
    const first = started.first;
    for (const line of started.command?.output.lines ?? []) w.err(`${line}\n`);
    return { first: () => first({ signal: options.signal }) };
  }
  const { name, output } = started.command;
  if (format === 'text') (output.isError ? w.err : w.out)(`${output.lines.join('\n')}\n`);
  else
    w.out(
      `${JSON.stringify({ command: name, lines: output.lines, isError: output.isError === true, sessionId: conversation.session.id, ...conversation.snapshot() })}\n`,
    );
  return { exit: output.isError ? EXIT.usage : EXIT.ok };
}

/**
 * Runs the message's turn without a TUI, and every turn an augment continues it with (a goal),
 * reporting them in the chosen format; resolves to the exit code of how the whole run ended.
 */
export async function runPrintTurn(options: PrintOptions): Promise<number> {
  const { conversation, writers: w, format } = options;
  const started = await startPrinted(options);
  if ('exit' in started) return started.exit;
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
    else {
      const line = systemLineOf(event);
      if (line !== undefined) w.err(`${line}\n`);
    }
  });
  let floor;
  try {
    floor = await holdFloor(conversation, started.first, {
      signal: options.signal,
      onTurn: () => {
        // Each turn's end goes out after what augments said of it (its verdict), as serve sends them.
        if (format === 'stream-json' && terminal) w.out(`${JSON.stringify(terminal)}\n`);
        terminal = undefined;
      },
      onContinue: () => {
        if (format === 'text' && !text.endsWithNewline()) w.out('\n');
      },
    });
  } finally {
    unsubscribe();
  }
  // The whole run: how it ended, everything said and called, every token spent.
  const result = floor.whole;
  const summary = {
    ...summarize(result, conversation.session.id, conversation.snapshot()),
    // Every turn the run took: one, or each of a goal's.
    turns: floor.turns.map((turn) => turnSummary(turn)),
  };
  const stoppedBy = result.status === 'canceled' && options.signal.reason instanceof Interrupted ? options.signal.reason.by : undefined;
  if (format === 'json') w.out(`${JSON.stringify(summary, null, 2)}\n`);
  if (format === 'stream-json') {
    w.out(`${JSON.stringify({ type: 'RESULT', ...summary })}\n`);
  }
  // An augment that ended the run (a goal) said how on stderr already, in its own line.
  if (format === 'text' && floor.last.release) {
    if (!text.endsWithNewline()) w.out('\n');
  } else if (format === 'text') {
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
