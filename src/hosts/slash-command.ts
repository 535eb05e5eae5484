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
export async function runMessageCommand(conversation: Conversation, message: string): Promise<{ name: string; output: CommandOutput } | undefined> {
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
