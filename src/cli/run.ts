import { Option, type Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { addAllowToolOption, collect } from './repeatable-option.js';
import type { RunOptionValues } from './run-action.js';
import { addModelOptions } from './model-options.js';
import { addStoreOption } from './store-option.js';
import { numberDefault } from './integer-option.js';
import { DEFAULT_MAX_MESSAGE_CHARS } from '../hosts/message-limit.js';

export function registerRun(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('run')
    .description('chat with the agent in a folder (a TUI), or run one turn with --print')
    .argument('[dir]', 'agent folder (default: the current one)')
    .argument('[message]', 'with --print: the message (omit or - to read stdin)')
    .option('-p, --print', 'run one turn without the TUI and print the result')
    .addOption(new Option('-o, --output <format>', 'with --print: how to report the turn').choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--output-format <format>', 'the same as --output').choices(['text', 'json', 'stream-json']))
    .option('-s, --session <id>', 'resume this session')
    .option('-r, --resume [id]', "resume this session; without an id, pick one from the list of this folder's sessions")
    .option('-c, --continue', 'resume the most recent session anything was said in')
    .option('--goal <condition>', 'goal: set this goal and keep working until it is met, without the TUI (implies --print)')
    .option('--event <name>', 'workflow: apply this event from outside before the turn')
    .option('--board <line=text>', 'board: set a person-owned line before the turn (repeatable)', collect, [])
    .option('--attach <file>', 'with --print: send this image (PNG, JPEG, GIF, WebP) with the message (repeatable)', collect, [])
    .addOption(
      numberDefault(new Option('--max-message-chars <n>', 'with --print: refuse a longer message before anything is sent'), DEFAULT_MAX_MESSAGE_CHARS),
    );
  addAllowToolOption(command);
  addModelOptions(command);
  addStoreOption(command);
  command.addHelpText(
    'after',
    `
Which argument is which: with two, the first is the agent folder and the second the message.
With --print and one, it is the folder when it names an existing directory, and otherwise the
message, for the agent in the current folder. So inside an agent folder
\`auggy run -p "hello"\` (or \`auggy -p "hello"\`) runs one turn there, and
\`auggy run DIR -p "hello"\` runs it in DIR. With no message, or -, it is read from stdin.

Exit codes with --print: 0 completed (with a goal: met), 3 input-required (the agent asked a
question), 1 failed or budget-exhausted (a goal out of budget or paused), 2 usage or configuration error (also: the session is in use by
another auggy), 130 canceled by Ctrl+C, 143 stopped by SIGTERM (the partial reply is saved).

Examples:
  auggy run examples/demo
  auggy run examples/demo --print "deploy the api"
  cd examples/demo && auggy -p "deploy the api"
  echo "api-west" | auggy run examples/demo --print --session <id> --output json
  auggy run examples/demo --print --attach chart.png "what does this chart show?"
  auggy run examples/demo --resume
  auggy run . --goal "the tests in test/api pass"   (needs the goal augment)`,
  );
  command.action(async (dir: string | undefined, message: string | undefined, options: RunOptionValues) => {
    const { runCommand } = await import('./run-action.js');
    setExitCode(await runCommand(dir, message, options));
  });
}
