import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';

export function registerAdmin(program: Command, setExitCode: SetExitCode): void {
  program
    .command('admin')
    .description('show what each augment of an agent exposes: tools, behaviour, description overrides')
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string, options: { json?: boolean }) => {
      const { adminCommand } = await import('./admin-action.js');
      setExitCode(await adminCommand(dir, options));
    });
}
