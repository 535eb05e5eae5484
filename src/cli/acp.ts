import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { addAllowToolOption } from './repeatable-option.js';
import type { AcpOptionValues } from './acp-action.js';
import { addModelOptions } from './model-options.js';
import { addStoreOption } from './store-option.js';

export function registerAcp(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('acp')
    .description('run the agent inside an editor (Zed, JetBrains, Neovim, acpx): the Agent Client Protocol on stdin/stdout')
    .argument('[dir]', "agent folder (default: the folder at or above each session's cwd that holds agent.yaml)");
  addAllowToolOption(command);
  addModelOptions(command);
  addStoreOption(command);
  command.addHelpText(
    'after',
    `
stdout carries only JSON-RPC messages; logs and warnings go to stderr. Sessions are ordinary
auggy sessions: auggy run --session <id> continues one in the terminal, and the other way round.

Examples:
  auggy acp examples/demo
  npx acpx --agent "auggy acp examples/demo" exec "deploy the api"`,
  );
  command.action(async (dir: string | undefined, options: AcpOptionValues) => {
    const { acpCommand } = await import('./acp-action.js');
    setExitCode(await acpCommand(dir, options));
  });
}
