import type { CommandOutput, SlashCommand } from '../kernel/augment.js';
import type { Conversation, ConversationTurn, TurnOptions } from '../kernel/conversation.js';

/** `/name args` → its parts; undefined when the text is not a command. Every host reads commands so. */
export function parseCommandLine(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1], args: (match[2] ?? '').trim() };
}

/** What a line that is not a command sends: `//etc` sends `/etc`, a message that starts with a slash. */
export function messageText(text: string): string {
  return text.startsWith('//') ? text.slice(1) : text;
}

export async function runCommand(command: SlashCommand, args: string): Promise<CommandOutput> {
  try {
    return await command.run(args);
  } catch (error) {
    // A broken augment command is reported like any other failure; the host carries on.
    return { lines: [`/${command.name} failed: ${error instanceof Error ? error.message : String(error)}`], isError: true };
  }
}

/**
 * A message that names one of the conversation's (augments') commands, run: `--print "/goal …"`
 * and a serve client's message take commands so. Undefined when the message is not one (`//`
 * sends a message that starts with a slash).
 */
export async function runMessageCommand(conversation: Conversation, message: string): Promise<RanCommand | undefined> {
  const parsed = message.startsWith('//') ? undefined : parseCommandLine(message);
  const command = parsed && conversation.commands().find((candidate) => candidate.name.toLowerCase() === parsed.name.toLowerCase());
  if (!parsed || !command) return undefined;
  return { name: command.name, output: await runCommand(command, parsed.args) };
}

/** The turn a command's `startTurn` asks for: the person's message, or an augment's directive. */
export function commandTurn(conversation: Conversation, start: NonNullable<CommandOutput['startTurn']>, options: TurnOptions): () => Promise<ConversationTurn> {
  const by = start.by;
  return () => (by === undefined ? conversation.runTurn(start.message, options) : conversation.continueTurn({ directive: start.message, by }, options));
}

/** The command a message named, run, with its output for the host to show. */
export interface RanCommand {
  name: string;
  output: CommandOutput;
}

/**
 * What one message from the person starts: its first turn, given the host's turn options (the
 * message as the person's turn, or the turn its command asked for), or, for a command that
 * starts nothing, only the command's output.
 */
export type MessageStart = { command?: RanCommand; first: (options: TurnOptions) => Promise<ConversationTurn> } | { command: RanCommand; first?: undefined };

/**
 * One road from a message to its first turn, for every host: a message naming one of the
 * conversation's commands (`/goal …`) runs it now, and the turn it asks for follows unless it
 * failed; any other message is the person's turn (`//` sending a message that starts with a
 * slash), with the message's own id and images.
 */
export async function startFromMessage(
  conversation: Conversation,
  message: string,
  own: Pick<TurnOptions, 'messageId' | 'images'> = {},
): Promise<MessageStart> {
  const ran = await runMessageCommand(conversation, message);
  if (!ran) return { first: (options) => conversation.runTurn(messageText(message), { ...options, ...own }) };
  const start = ran.output.startTurn;
  if (!start || ran.output.isError) return { command: ran };
  return { command: ran, first: (options) => commandTurn(conversation, start, options)() };
}
