import { EXIT, UsageError } from './exit-codes.js';
import { integerOption } from './integer-option.js';
import type { RunOptionValues } from './run.js';
import { loadRunnableAgent, openConversation } from '../hosts/open-conversation.js';
import type { Conversation } from '../kernel/conversation.js';
import { SessionError } from '../session/session.js';

function warnOnStderr(message: string): void {
  process.stderr.write(`auggy: warning: ${message}\n`);
}

/** `--event` and `--board` go to the augment that takes them; a refusal stops before any turn runs. */
async function applyHostInputs(conversation: Conversation, options: RunOptionValues): Promise<void> {
  const inputs: [string, string][] = [...options.board.map((pair): [string, string] => ['board', pair])];
  if (options.event !== undefined) inputs.push(['event', options.event]);
  // All or nothing: every flag is checked before the first one changes anything.
  for (const [name, value] of inputs) {
    const refused = conversation.checkHostInput(name, value);
    if (refused) throw new UsageError(refused.message);
  }
  for (const [name, value] of inputs) {
    const applied = await conversation.hostInput(name, value);
    if (!applied.ok) throw new UsageError(applied.message);
    if (applied.message) process.stderr.write(`auggy: ${applied.message}\n`);
  }
}

/** `auggy run`: --print runs one turn; otherwise the TUI opens on a terminal. */
export async function runCommand(dir: string, message: string | undefined, options: RunOptionValues): Promise<number> {
  if (options.session !== undefined && options.continue) throw new UsageError('use either --session or --continue, not both');
  if (!options.print) {
    if (options.event !== undefined || options.board.length > 0) {
      throw new UsageError('--event and --board are taken with --print; in the chat use /workflow event and /board set');
    }
    if (message !== undefined) throw new UsageError(`a message ("${message}") is only taken with --print; for a chat run: auggy run ${dir}`);
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new UsageError('auggy run needs a terminal for the chat; without one use --print (auggy run --print "message")');
    }
  }
  const maxMessageChars = integerOption('--max-message-chars', options.maxMessageChars, 1);
  const target = await loadRunnableAgent(dir, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout }, warnOnStderr);
  const choice = { sessionId: options.session, continueLatest: options.continue };
  if (!options.print) {
    const { startTui } = await import('../hosts/tui/start-tui.js');
    return startTui(target, choice);
  }

  const { readMessage } = await import('../hosts/print/read-message.js');
  const { runPrintTurn, Interrupted } = await import('../hosts/print/print-host.js');
  const text = await readMessage(message, maxMessageChars);
  const conversation = await openConversation(target, choice, warnOnStderr);
  const controller = new AbortController();
  let interrupts = 0;
  // SIGTERM (CI stopping a job on timeout) ends the turn as Ctrl+C does: canceled and saved.
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    interrupts++;
    // The first signal cancels the turn cleanly; a second one does not wait.
    if (interrupts === 1) controller.abort(new Interrupted(signal));
    else process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.canceled);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // One writer per session: the lease covers the flags and the turn, and is refused at once when another auggy holds it.
    return await conversation.asWriter(async () => {
      await applyHostInputs(conversation, options);
      return runPrintTurn({
        conversation,
        message: text,
        format: options.output,
        signal: controller.signal,
        writers: {
          out: (chunk) => process.stdout.write(chunk),
          err: (chunk) => process.stderr.write(chunk),
          colour: process.stderr.isTTY === true && !process.env.NO_COLOR,
        },
      });
    });
  } catch (error) {
    if (error instanceof SessionError) throw new UsageError(error.message);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
