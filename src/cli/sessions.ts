import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';

export function registerSessions(program: Command, setExitCode: SetExitCode): void {
  program
    .command('sessions')
    .description("list an agent folder's sessions, newest first: id, when, how it ended, the first message")
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the sessions as a JSON array')
    .addHelpText(
      'after',
      `
Sessions where nothing was said (a chat opened and quit) are left out.
Resume one with: auggy run [dir] --resume <id>   (or --session <id>)

Examples:
  auggy sessions
  auggy sessions examples/demo --json`,
    )
    .action(async (dir: string, options: { json?: boolean }) => {
      const { sessionsCommand } = await import('./sessions/sessions-action.js');
      setExitCode(await sessionsCommand(dir, options));
    });
}
