import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { addStoreOption, type StoreOptionValues } from './store-option.js';

export function registerSessions(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('sessions')
    .description("list an agent's sessions, newest first: id, when, how it ended, the first message")
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the sessions as a JSON array');
  addStoreOption(command)
    .addHelpText(
      'after',
      `
Sessions where nothing was said (a chat opened and quit) are left out.
With --store (or AUGGY_STORE) the list is this agent's sessions in that database, not the folder's.
Resume one with: auggy run [dir] --resume <id>   (or --session <id>; add the same --store)

Examples:
  auggy sessions
  auggy sessions examples/demo --json
  auggy sessions examples/demo --store postgres://auggy@db.internal:5432/auggy`,
    )
    .action(async (dir: string, options: { json?: boolean } & StoreOptionValues) => {
      const { sessionsCommand } = await import('./sessions/sessions-action.js');
      setExitCode(await sessionsCommand(dir, options));
    });
}
