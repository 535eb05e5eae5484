import { EXIT, UsageError } from './exit-codes.js';
import type { RunOptionValues } from './run.js';
import { loadRunnableAgent, openAgentStore, openWritingConversation } from '../hosts/open-conversation.js';
import { storeChoiceFrom } from './store-option.js';
import type { Conversation } from '../kernel/conversation.js';
import type { WriterLease } from '../session/store.js';

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
  const storeChoice = storeChoiceFrom(options);
  const target = await loadRunnableAgent(dir, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout }, warnOnStderr);
  const choice = { sessionId: options.session, continueLatest: options.continue };
  if (!options.print) {
    const { startTui } = await import('../hosts/tui/start-tui.js');
    return startTui(target, choice, storeChoice);
  }

  const { readMessage } = await import('../hosts/print/read-message.js');
  const text = await readMessage(message);
  const store = await openAgentStore(target, storeChoice, warnOnStderr);
  try {
    const { conversation, writer } = await openWritingConversation(target, choice, warnOnStderr, store);
    try {
      await applyHostInputs(conversation, options);
      return await printTurn(conversation, text, options, writer);
    } finally {
      await writer.release();
      await conversation.session.close().catch(() => undefined);
    }
  } finally {
    await store.close();
  }
}

async function printTurn(conversation: Conversation, text: string, options: RunOptionValues, writer: WriterLease): Promise<number> {
  const { runPrintTurn } = await import('../hosts/print/print-host.js');
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    // The first Ctrl+C cancels the turn cleanly; a second one does not wait.
    if (interrupts === 1) controller.abort(new Error('interrupted'));
    else process.exit(EXIT.canceled);
  };
  process.on('SIGINT', onSigint);
  try {
    return await runPrintTurn({
      conversation,
      message: text,
      format: options.output,
      signal: controller.signal,
      writer,
      writers: {
        out: (chunk) => process.stdout.write(chunk),
        err: (chunk) => process.stderr.write(chunk),
        colour: process.stderr.isTTY === true && !process.env.NO_COLOR,
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
