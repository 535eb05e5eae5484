import { InvalidArgumentError, Option, type Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { REPORTERS, type TestOptionValues } from './test-options.js';
import { addModelOptions } from './model-options.js';

function parseRepeat(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || count < 1 || count > 1000) throw new InvalidArgumentError(`--repeat takes a whole number from 1 to 1000, not "${value}"`);
  return count;
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new InvalidArgumentError(`--min-pass-rate takes a share of runs from 0 to 1 (0.8 for 80%), not "${value}"`);
  }
  return rate;
}

export function registerTest(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('test')
    .description('run conversation scenarios (<dir>/tests/*.scenario.yaml) against the agent and check their assertions')
    .argument('[dir]', 'agent folder', '.')
    .argument('[files...]', 'scenario files or folders to run instead of <dir>/tests')
    .addOption(new Option('--reporter <format>', 'text for people; junit or json for CI and scripts').choices(REPORTERS).default('text'))
    .option('-o, --output <file>', 'write the report to this file (the text lines still go to stdout)')
    .option('--repeat <n>', 'run each scenario n times and report its pass rate', parseRepeat)
    .option('--min-pass-rate <rate>', 'share of runs (0 to 1) a scenario must pass', parseRate, 1)
    .option('--filter <name>', 'run only the scenarios whose name contains this')
    .option('--judge-model <provider:model>', "the model that judges PromptKit's LLM-judged checks (faithfulness, ...); without it they are skipped")
    .option('--persona-model <provider:model>', "the model that plays a self-play turn's persona; the agent's own model when not given");
  addModelOptions(command);
  command.addHelpText(
    'after',
    `
Each scenario runs in a fresh session in a temp folder that is removed afterwards; the agent
folder's own sessions are never touched. Scenario files are PromptKit Scenario files
(kind: Scenario, spec.turns[] with role, content and assertions[] of {type, params}).
A self-play turn (role: <provider>-user, persona: <id>, turns: N) is played by the persona
in personas/*.persona.yaml: offline by a PromptKit mock config (self-play.yaml in the agent
folder, or the agent's own), else by --persona-model or the agent's model.

Exit codes: 0 every scenario passed, 1 one failed, 2 a bad scenario file (file:line) or
usage error (nothing was run), 130 canceled with Ctrl+C, 143 stopped by SIGTERM
(a CI timeout); a canceled run removes its throwaway session and reports what finished.

Examples:
  auggy test examples/demo
  auggy test . tests/deploy.scenario.yaml --filter deploy
  auggy test . --reporter junit --output reports/auggy.xml
  auggy test . --model openai:gpt-5.4-mini --repeat 5 --min-pass-rate 0.8`,
  );
  command.action(async (dir: string, files: string[], options: TestOptionValues) => {
    const { testCommand } = await import('./test-action.js');
    setExitCode(await testCommand(dir, files, options));
  });
}
