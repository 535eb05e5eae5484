import type { SlashCommand } from '../../kernel/augment.js';
import { editDistance } from '../../agent/suggest.js';

// One reading of `/name args` for every host; the chat's registry is built on it.
export { messageText, parseCommandLine, runCommand } from '../slash-command.js';

/** A slash command in the one list the person sees, whoever contributed it. */
export interface RegisteredCommand extends SlashCommand {
  source: 'tui' | 'augment';
}

export interface CommandRegistry {
  commands: RegisteredCommand[];
  /** Augment commands left out because an earlier command has the name. */
  shadowed: string[];
}

/** The TUI's own commands first; an augment command with a name already taken is left out. */
export function buildRegistry(own: SlashCommand[], augments: SlashCommand[]): CommandRegistry {
  const commands: RegisteredCommand[] = [];
  const shadowed: string[] = [];
  const taken = new Set<string>();
  for (const [source, list] of [
    ['tui', own],
    ['augment', augments],
  ] as const) {
    for (const command of list) {
      const key = command.name.toLowerCase();
      if (taken.has(key)) {
        shadowed.push(command.name);
        continue;
      }
      taken.add(key);
      commands.push({ ...command, source });
    }
  }
  return { commands, shadowed };
}

export function findCommand(registry: CommandRegistry, name: string): RegisteredCommand | undefined {
  const key = name.toLowerCase();
  return registry.commands.find((command) => command.name.toLowerCase() === key);
}

/** Commands whose name starts with what is typed after the slash, exact match first. */
export function matchCommands(registry: CommandRegistry, typed: string): RegisteredCommand[] {
  const key = typed.toLowerCase();
  return registry.commands
    .filter((command) => command.name.toLowerCase().startsWith(key))
    .sort((a, b) => Number(b.name.toLowerCase() === key) - Number(a.name.toLowerCase() === key) || a.name.localeCompare(b.name));
}

/** While the person types a command name (`/he`), the commands it could become. */
export function commandSuggestions(registry: CommandRegistry, text: string): RegisteredCommand[] {
  const match = /^\/(\S*)$/.exec(text);
  return match ? matchCommands(registry, match[1]) : [];
}

/** The command name closest to `name`, however far: the person gets a suggestion either way. */
export function nearestCommand(registry: CommandRegistry, name: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const command of registry.commands) {
    const distance = editDistance(name, command.name);
    if (!best || distance < best.distance) best = { name: command.name, distance };
  }
  return best?.name;
}

export function unknownCommandMessage(registry: CommandRegistry, name: string): string {
  const closest = nearestCommand(registry, name);
  const hint = closest ? `did you mean /${closest}?` : 'there are no commands';
  return `unknown command /${name}: ${hint} (/help lists them all; nothing was sent)`;
}

/** One line per command for /help, names aligned. */
export function helpLines(registry: CommandRegistry): string[] {
  const labels = registry.commands.map((command) => `/${command.name}${command.usage ? ` ${command.usage}` : ''}`);
  const width = Math.max(0, ...labels.map((label) => label.length));
  return registry.commands.map((command, index) => `${labels[index].padEnd(width)}  ${command.summary}`);
}
