import type { Command } from 'commander';
import type { SetExitCode } from './commands.js';
import { addModelOptions, type ModelOptionValues } from './model-options.js';
import { addStoreOption, type StoreOptionValues } from './store-option.js';

export interface ServeOptionValues extends ModelOptionValues, StoreOptionValues {
  host: string;
  port: string;
  token?: string;
  maxMessageChars: string;
  graceMs: string;
  corsOrigin?: string;
  allowTool: string[];
}

export function registerServe(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('serve')
    .description('serve the agent in a folder over HTTP as AG-UI (POST /agent/run, Server-Sent Events)')
    .argument('[dir]', 'agent folder', '.')
    .option('--host <address>', 'address to bind; anything but loopback needs a token', '127.0.0.1')
    .option('--port <number>', 'port to listen on (0 picks a free one)', '8787')
    .option('--token <secret>', 'bearer token required on /agent/run and /admin (also AUGGY_TOKEN)')
    .option('--max-message-chars <n>', 'refuse a user message longer than this (HTTP 413)', '32000')
    .option('--grace-ms <ms>', 'on SIGTERM, how long in-flight runs may finish before they are canceled', '5000')
    .option('--cors-origin <origin>', 'allow browser pages from this origin (or *) to call the server')
    .option('--allow-tool <pattern>', 'mcp: let tools matching this run without a person\'s yes, e.g. mcp_ops_* (repeatable)', (value: string, previous: string[]) => [...previous, value], []);
  addModelOptions(command);
  addStoreOption(command);
  command.addHelpText(
    'after',
    `
Routes:
  POST /agent/run   AG-UI RunAgentInput in, a Server-Sent Events stream of AG-UI events out;
                    threadId names the session, so the next message on a thread continues it
  POST /agent/board {"threadId", "lines": {"<line>": "<text>"}}: the person's board lines, written
                    at once, even while a run is in flight on the thread (its next round reads them)
  GET  /health      {"status":"healthy"}
  GET  /admin       the auggy admin report as JSON

A run that asks a question ends with RUN_FINISHED result {status:"input-required", message}.
SIGTERM stops accepting, lets in-flight runs finish for --grace-ms, cancels the rest, exits 0.

Examples:
  auggy serve examples/demo
  auggy serve examples/demo --port 0
  AUGGY_TOKEN=secret auggy serve . --host 0.0.0.0
  AUGGY_TOKEN=secret auggy serve . --host 0.0.0.0 --store postgres://auggy@db:5432/auggy   (one of several replicas)`,
  );
  command.action(async (dir: string, options: ServeOptionValues) => {
    const { serveCommand } = await import('./serve-action.js');
    setExitCode(await serveCommand(dir, options));
  });
}
