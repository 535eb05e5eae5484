import { Option, type Command } from 'commander';
import type { SetExitCode } from './commands.js';
import { addModelOptions, type ModelOptionValues } from './model-options.js';
import { addStoreOption, type StoreOptionValues } from './store-option.js';

export interface RunOptionValues extends ModelOptionValues, StoreOptionValues {
  print?: boolean;
  output: 'text' | 'json' | 'stream-json';
  session?: string;
  continue?: boolean;
  event?: string;
  board: string[];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerRun(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('run')
    .description('chat with the agent in a folder (a TUI), or run one turn with --print')
    .argument('[dir]', 'agent folder', '.')
    .argument('[message]', 'with --print: the message (omit or - to read stdin)')
    .option('-p, --print', 'run one turn without the TUI and print the result')
    .addOption(new Option('-o, --output <format>', 'with --print: how to report the turn').choices(['text', 'json', 'stream-json']).default('text'))
    .option('-s, --session <id>', 'resume this session')
    .option('-c, --continue', 'resume the most recent session')
    .option('--event <name>', 'workflow: apply this event from outside before the turn')
    .option('--board <line=text>', 'board: set a person-owned line before the turn (repeatable)', collect, []);
  addModelOptions(command);
  addStoreOption(command);
  command.addHelpText(
    'after',
    `
Exit codes with --print: 0 completed, 3 input-required (the agent asked a question),
1 failed or budget-exhausted, 2 usage or configuration error, 130 canceled.

Examples:
  auggy run examples/demo
  auggy run examples/demo --print "deploy the api"
  echo "api-west" | auggy run examples/demo --print --session <id> --output json`,
  );
  command.action(async (dir: string, message: string | undefined, options: RunOptionValues) => {
    const { runCommand } = await import('./run-action.js');
    setExitCode(await runCommand(dir, message, options));
  });
}
