import type { Command } from 'commander';
import { nearest } from '../agent/suggest.js';

/** `--allowedTools`, `--allow_tool` and `--allow-tool` compared alike: case, dashes and underscores aside. */
function bare(flag: string): string {
  return flag.replace(/^-+/, '').replace(/[-_]/g, '').toLowerCase();
}

/**
 * The option of the command being run closest to an unknown one. Commander suggests only flags
 * spelled nearly alike; people arriving from other agent CLIs type their camelCase names
 * (`--allowedTools` for `--allow-tool`), which differ from ours mostly in case and dashes.
 */
export function closestOption(program: Command, argv: readonly string[], unknown: string): string | undefined {
  const named = program.commands.find((command) => argv.slice(2).some((arg) => arg === command.name() || command.aliases().includes(arg)));
  const command = named ?? program.commands.find((candidate) => candidate.name() === 'run') ?? program;
  const longs = [...command.options, ...program.options].flatMap((option) => (option.long ? [option.long] : []));
  const byBare = new Map(longs.map((long) => [bare(long), long]));
  const meant = nearest(bare(unknown), [...byBare.keys()]);
  return meant === undefined ? undefined : byBare.get(meant);
}
