import { Command, CommanderError } from 'commander';
import { config as configureZod } from 'zod';
import { readFileSync } from 'node:fs';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { registerCommands } from './commands.js';
import { packagePath } from './package-root.js';
import { bareAction, routeArgs } from './entry-args.js';
import { ROOT_HELP_AFTER } from './help.js';
import { closestOption } from './closest-option.js';
import { defaultAgentFolder } from './agent-folder.js';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Commander prints "error: ...\n(Did you mean x?)"; auggy says it on one line. */
function oneLine(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean/g, ' (did you mean')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** ` (did you mean --allow-tool?)` for an unknown option commander found nothing close to. */
function suggestionFor(error: CommanderError, program: Command, argv: readonly string[]): string {
  if (error.code !== 'commander.unknownOption' || /Did you mean/.test(error.message)) return '';
  const unknown = /'([^']+)'/.exec(error.message)?.[1];
  const meant = unknown === undefined ? undefined : closestOption(program, argv, unknown.split('=')[0]);
  return meant === undefined ? '' : ` (did you mean ${meant}?)`;
}

const USAGE_CODES = new Set([
  'commander.unknownCommand',
  'commander.unknownOption',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.invalidArgument',
  'commander.excessArguments',
  'commander.conflictingOption',
]);

/**
 * `auggy … | head` closes stdout early: that is the reader saying it has enough, so the process
 * ends quietly instead of dying on EPIPE with a stack trace.
 */
function endQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
}

/**
 * zod compiles a fast path for each object schema (with `new Function`) the first time it parses
 * with it. That pays in `auggy serve`, which parses the same schemas for every run; a command that
 * parses each schema a few times and exits only pays for the compiling (about a tenth of
 * `run --print`'s CPU, see docs/performance.md). zod decides it when a schema is built, so this runs
 * before any command's modules are loaded. `config` is imported by name: a dynamic `import('zod')`
 * hands over zod's whole namespace, so the bundle had to load every zod module with it (its checks,
 * ISO formats and JSON Schema reader, bundled with the MCP augment's code that uses them).
 */
function parseWithoutCompiledSchemas(argv: string[]): void {
  if (argv[2] === 'serve') return;
  configureZod({ jitless: true });
}

/** Runs the CLI and resolves to the process exit code; never throws for expected failures. */
export async function main(rawArgv: string[]): Promise<number> {
  endQuietlyOnClosedStdout();
  const entry = routeArgs(rawArgv);
  let argv = entry.kind === 'argv' ? entry.argv : rawArgv;
  if (entry.kind === 'bare') {
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    argv = [...rawArgv.slice(0, 2), ...(bareAction(process.cwd(), terminal) === 'chat' ? ['run'] : ['--help'])];
  }
  parseWithoutCompiledSchemas(argv);
  let exitCode: number = EXIT.ok;
  const program = new Command('auggy')
    .description('Build and run LLM agents that are plain folders, and know who holds the next turn.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeErr: () => {
        // Errors are printed once, below, in auggy's one-line form.
      },
    });
  program.helpOption('-h, --help', 'show help');
  program.usage('[command] [options]  (options alone are run\'s: auggy -p "message")');
  program.addHelpText('after', ROOT_HELP_AFTER);
  registerCommands(program, (code) => {
    exitCode = code;
  });
  // Every command's [dir] defaults to `.`; from a subfolder of an agent it means that agent.
  program.hook('preAction', (_program, action) => {
    if (action.registeredArguments[0]?.name() === 'dir' && action.processedArgs[0] === '.') action.processedArgs[0] = defaultAgentFolder('.');
  });

  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return EXIT.ok;
      }
      process.stderr.write(`auggy: ${oneLine(error.message)}${suggestionFor(error, program, argv)}\n`);
      if (error.code === 'commander.executeSubCommandAsync') return EXIT.failed;
      return USAGE_CODES.has(error.code) ? EXIT.usage : error.exitCode || EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`auggy: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
