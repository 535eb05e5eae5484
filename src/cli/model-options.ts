import { InvalidArgumentError, type Command } from 'commander';

function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new InvalidArgumentError('give a number of seconds above 0, such as 60');
  }
  return n;
}

/** --model, --base-url and --timeout: every command that runs a turn accepts them. */
export function addModelOptions(command: Command): Command {
  return command
    .option('-m, --model <provider:model>', 'use this model instead of engine in agent.yaml (also AUGGY_MODEL)')
    .option('--base-url <url>', 'API base URL for the provider (also AUGGY_BASE_URL)')
    .option('--timeout <seconds>', 'fail a model call after this long without a byte from the server (engine.timeoutSeconds, default 60)', seconds);
}

export interface ModelOptionValues {
  model?: string;
  baseUrl?: string;
  timeout?: number;
}
