import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
// Type-only: erased from the output, so `auggy --version` still loads nothing but commander.
import type { CreateFlags } from './create/answers.js';

export function registerCreate(program: Command, setExitCode: SetExitCode): void {
  program
    .command('create')
    .description('scaffold a new agent folder from the templates')
    .argument('<name>', 'the agent name: also the folder name (lowercase letters, digits, - _ .)')
    .option('--provider <provider>', 'anthropic | openai | openrouter | ollama | openai-compatible | scripted (default openai)')
    .option('--model <model>', "the provider's model (default depends on the provider)")
    .option('--base-url <url>', 'server URL for ollama and openai-compatible')
    .option('--display-name <text>', 'the name shown to people (default from <name>)')
    .option('--purpose <text>', 'one line on what the agent is for')
    .option('--creator <name>', 'who made the agent, written as creator.displayName (default "the creator")')
    .option('--augment <id...>', 'add built-in augments besides turnControl (each gets its folder and skill)')
    .option('-y, --yes', 'ask nothing: take the defaults for everything not given')
    .option('--dir <parent>', 'create the folder inside this one (default: the current folder)')
    .addHelpText(
      'after',
      `
On a terminal, values not given as flags are asked for; otherwise the defaults apply.
Default models: anthropic claude-sonnet-4-5, openai gpt-5.4-mini, openrouter openai/gpt-5.4-mini,
ollama llama3.2, openai-compatible local-model, scripted demo.

Examples:
  auggy create my-agent
  auggy create deployer --provider anthropic --purpose "Deploy our services" --yes
  auggy create local --provider ollama --model llama3.2 --dir ~/agents --yes`,
    )
    .action(async (name: string, options: CreateFlags) => {
      const { createCommand, processIo } = await import('./create/create-action.js');
      setExitCode(await createCommand(name, options, processIo()));
    });
}
