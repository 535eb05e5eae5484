import type { Command } from 'commander';

/** Commander's argParser for an option given more than once: every value, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--allow-tool`, the same on every command that runs turns (run, serve, acp); hostScopeFor checks the patterns. */
export function addAllowToolOption(command: Command): Command {
  return command.option('--allow-tool <pattern>', "mcp: let tools matching this run without a person's yes, e.g. mcp_ops_* (repeatable)", collect, []);
}
