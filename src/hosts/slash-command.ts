import type { CommandOutput, SlashCommand } from '../kernel/augment.js';

/** `/name args` → its parts; undefined when the text is not a command. Every host reads commands so. */
export function parseCommandLine(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1], args: (match[2] ?? '').trim() };
}

export async function runCommand(command: SlashCommand, args: string): Promise<CommandOutput> {
  try {
    return await command.run(args);
  } catch (error) {
    // A broken augment command is reported like any other failure; the host carries on.
    return { lines: [`/${command.name} failed: ${error instanceof Error ? error.message : String(error)}`], isError: true };
  }
}
