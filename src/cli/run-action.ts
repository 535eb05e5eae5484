import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { integerOption } from './integer-option.js';
import { invokedAs } from './invoked-as.js';
import { resolveRunArgs } from './run-args.js';
import { defaultAgentFolder } from './agent-folder.js';
import { storeChoiceFrom, type StoreOptionValues } from './store-option.js';
import { agentSessions, sessionListText } from './sessions/sessions-action.js';
import { loadRunnableAgent, openAgentStore, openConversation, type AgentTarget, type SessionChoice } from '../hosts/open-conversation.js';
import { retypeCommand, type RetypeContext } from '../hosts/retype-command.js';
import type { Conversation } from '../kernel/conversation.js';
import type { StoreChoice } from '../session/open-store.js';
import { hostScopeFor } from './allow-tool.js';
import type { ModelOptionValues } from './model-options.js';
import { SessionError } from '../session/session.js';
import { readImageFile, readImages, type ImageInput } from '../kernel/image-input.js';

export interface RunOptionValues extends ModelOptionValues, StoreOptionValues {
  print?: boolean;
  output: 'text' | 'json' | 'stream-json';
  /** `--output-format`, the spelling other agent CLIs use; the same as --output. */
  outputFormat?: 'text' | 'json' | 'stream-json';
  session?: string;
  /** `--resume ID` resumes it; a bare `--resume` lists the sessions to pick from. */
  resume?: string | true;
  continue?: boolean;
  event?: string;
  /** `--goal <condition>`: `--print "/goal <condition>"`, said shorter. */
  goal?: string;
  board: string[];
  /** `--attach <file>`: images sent with the --print message. */
  attach: string[];
  allowTool: string[];
  maxMessageChars: string;
}

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

/** --session, --resume ID and --continue each name one session; two of them contradict. */
function sessionChoice(options: RunOptionValues): SessionChoice & { pick: boolean } {
  const resumeId = typeof options.resume === 'string' ? options.resume : undefined;
  const given = [options.session !== undefined && '--session', options.resume !== undefined && '--resume', options.continue && '--continue'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`use one of ${given.join(' and ')}, not both: each picks the session`);
  return { sessionId: options.session ?? resumeId, continueLatest: options.continue, pick: options.resume === true };
}

/** The model flags of this run, for commands printed to be typed again. */
function modelFlags(options: RunOptionValues): string[] {
  return [
    ...(options.model !== undefined ? ['--model', options.model] : []),
    ...(options.baseUrl !== undefined ? ['--base-url', options.baseUrl] : []),
    ...(options.timeout !== undefined ? ['--timeout', String(options.timeout)] : []),
    // A session in the store is resumed from the store.
    ...(options.store !== undefined ? ['--store', options.store] : []),
  ];
}

/** `auggy run`: --print runs one turn; otherwise the TUI opens on a terminal. */
export async function runCommand(first: string | undefined, second: string | undefined, options: RunOptionValues): Promise<number> {
  const print = options.print === true || options.goal !== undefined;
  const resolved = resolveRunArgs(first, second, print);
  const { messageFromSoleArgument } = resolved;
  const dir = defaultAgentFolder(resolved.dir);
  if (options.goal !== undefined && resolved.message !== undefined) {
    throw new UsageError(`--goal is the run's message; give the goal or a message ("${resolved.message}"), not both`);
  }
  const message = options.goal !== undefined ? `/goal ${options.goal}` : resolved.message;
  const choice = sessionChoice(options);
  // isatty asks without creating process.stdin, which for a file or /dev/null (a script's usual
  // stdin) loads Node's file streams: a few ms of every `--print` start.
  const terminal = isatty(0) && process.stdout.isTTY === true;
  if (!print) {
    if (options.event !== undefined || options.board.length > 0) {
      throw new UsageError('--event and --board are taken with --print; in the chat use /workflow event and /board set');
    }
    if (options.attach.length > 0) {
      throw new UsageError('--attach is taken with --print; in the chat type @ and the image path, as in "what is this? @chart.png"');
    }
    if (message !== undefined) throw new UsageError(`a message ("${message}") is only taken with --print; for a chat run: auggy run ${dir}`);
  }
  if (messageFromSoleArgument && !existsSync(resolve(dir, 'agent.yaml'))) {
    throw new UsageError(
      `${resolve(dir)} has no agent.yaml, and "${message}" was read as the message because no folder has that name; ` +
        'run this inside an agent folder, or name the folder first: auggy run <dir> --print "message"',
    );
  }
  if (choice.pick && print) {
    throw new UsageError('with --print, --resume takes the session id (--resume <id>); auggy sessions lists them');
  }
  const retype: RetypeContext = { program: invokedAs(), agentDir: resolve(dir), cwd: process.cwd(), modelFlags: modelFlags(options) };
  const storeChoice = storeChoiceFrom(options);
  if (choice.pick && !terminal) {
    // Nobody to pick: the list is the answer, with how to resume one.
    const { summaries } = await agentSessions(dir, storeChoice);
    process.stdout.write(sessionListText(summaries, `${retypeCommand(retype, ['--resume'])} <id>`));
    return EXIT.ok;
  }
  if (!print && !terminal) {
    throw new UsageError('auggy run needs a terminal for the chat; without one use --print (auggy run --print "message")');
  }
  const maxMessageChars = integerOption('--max-message-chars', options.maxMessageChars, 1);
  const target = await loadRunnableAgent(dir, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout }, warnOnStderr);
  // Everything the run starts (MCP servers) is stopped before auggy exits, however the run ends.
  const host = hostScopeFor(target.agent, options.allowTool);
  target.host = host;
  try {
    if (!print) {
      const { startTui } = await import('../hosts/tui/start-tui.js');
      return await startTui(target, choice, {
        retype,
        sessions: choice.pick ? (await agentSessions(dir, storeChoice)).summaries : undefined,
        store: storeChoice,
      });
    }
    return await printTurn(target, choice, message, options, retype, maxMessageChars, storeChoice);
  } finally {
    await host.close();
  }
}

/** The --attach files, read and checked before anything is opened: one that is not an image stops the run in a sentence. */
async function readAttachments(paths: readonly string[]): Promise<ImageInput[]> {
  const read = await readImages(paths, readImageFile, (_path, why) => `--attach: ${why}`);
  if (!read.ok) throw new UsageError(read.why);
  return read.images;
}

async function printTurn(
  target: AgentTarget,
  choice: SessionChoice,
  message: string | undefined,
  options: RunOptionValues,
  retype: RetypeContext,
  maxMessageChars: number,
  storeChoice: Omit<StoreChoice, 'log'>,
): Promise<number> {
  const { readMessage } = await import('../hosts/print/read-message.js');
  const { runPrintTurn, Interrupted } = await import('../hosts/print/print-host.js');
  const text = await readMessage(message, maxMessageChars);
  const images = await readAttachments(options.attach);
  const store = await openAgentStore(target, storeChoice, warnOnStderr);
  try {
    // One turn with nobody at a prompt: there is no /compact or /clear to type.
    const conversation = await openConversation(target, choice, warnOnStderr, store, []);
    try {
      return await printAsWriter(conversation, text, images, options, retype, Interrupted, runPrintTurn);
    } finally {
      await conversation.session.close().catch(() => undefined);
    }
  } finally {
    await store.close();
  }
}

async function printAsWriter(
  conversation: Conversation,
  text: string,
  images: readonly ImageInput[],
  options: RunOptionValues,
  retype: RetypeContext,
  Interrupted: typeof import('../hosts/print/print-host.js').Interrupted,
  runPrintTurn: typeof import('../hosts/print/print-host.js').runPrintTurn,
): Promise<number> {
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
    if (options.goal !== undefined && !conversation.commands().some((command) => command.name === 'goal')) {
      throw new UsageError('--goal needs the goal augment: add goal to the augments in agent.yaml (auggy create --augment goal)');
    }
    return await conversation.asWriter(async () => {
      await applyHostInputs(conversation, options);
      return runPrintTurn({
        conversation,
        message: text,
        images,
        format: options.outputFormat ?? options.output,
        signal: controller.signal,
        answerCommand: (sessionId) => `${retypeCommand(retype, ['--print', '--session', sessionId])} "<answer>"`,
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
