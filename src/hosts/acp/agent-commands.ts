import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { SlashCommand } from '../../kernel/augment.js';

/** The agent's slash commands (its augments': /ask, /workflow, /board, ...) as an editor lists them. */
export function availableCommands(commands: readonly SlashCommand[]): AvailableCommand[] {
  return commands.map((command) => ({
    name: command.name,
    description: command.summary,
    ...(command.usage ? { input: { hint: command.usage } } : {}),
  }));
}
