import type { Command } from 'commander';

/** --model and --base-url: every command that runs a turn accepts them. */
export function addModelOptions(command: Command): Command {
  return command
    .option('-m, --model <provider:model>', 'use this model instead of engine in agent.yaml (also AUGGY_MODEL)')
    .option('--base-url <url>', 'API base URL for the provider (also AUGGY_BASE_URL)');
}

export interface ModelOptionValues {
  model?: string;
  baseUrl?: string;
}
