import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { addModelOptions } from './model-options.js';
import { addStoreOption } from './store-option.js';
import type { DoctorOptions } from './doctor/doctor-action.js';

export function registerDoctor(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('doctor')
    .description('check that an agent can run here: Node, the folder, its key, one tiny model request, MCP servers, the terminal, the session store')
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the checks as JSON: {ok, dir, checks: [{name, status, message, details}]}');
  addStoreOption(addModelOptions(command))
    .addHelpText(
      'after',
      `
One line per check: ok, warn, fail or skip. Exit codes: 0 nothing failed (warnings allowed),
1 a check failed, 2 no agent folder there. The model check sends one request of a few tokens.

Examples:
  auggy doctor
  auggy doctor examples/demo --json
  auggy doctor --model openai-compatible:qwen3 --base-url http://127.0.0.1:8000/v1
  auggy doctor --store postgres://auggy@db.internal:5432/auggy`,
    )
    .action(async (dir: string, options: DoctorOptions) => {
      const { doctorCommand } = await import('./doctor/doctor-action.js');
      setExitCode(await doctorCommand(dir, options, (text) => process.stdout.write(text)));
    });
}
