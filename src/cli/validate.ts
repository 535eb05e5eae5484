import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';

export function registerValidate(program: Command, setExitCode: SetExitCode): void {
  program
    .command('validate')
    .description('check an agent folder: agent.yaml, identity, augments, skills; errors and warnings with file:line')
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the findings as a JSON array')
    .option('--no-connect', 'do not start MCP servers (skips checking allowedTools against their tools)')
    .addHelpText('after', '\nExit codes: 0 no errors (warnings allowed), 1 errors found, 2 no agent folder there.')
    .action(async (dir: string, options: { json?: boolean; connect?: boolean }) => {
      const { validateCommand } = await import('./validate-action.js');
      setExitCode(await validateCommand(dir, options, (text) => process.stdout.write(text)));
    });
}
