import { Option, type Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { addAllowToolOption, collect } from './repeatable-option.js';
import type { ServeOptionValues } from './serve-action.js';
import { addModelOptions } from './model-options.js';
import { addStoreOption } from './store-option.js';
import { numberDefault } from './integer-option.js';
import { DEFAULT_MAX_BODY_MB, DEFAULT_MAX_MESSAGE_CHARS } from '../hosts/message-limit.js';

export function registerServe(program: Command, setExitCode: SetExitCode): void {
  const command = program
    .command('serve')
    .description('serve the agent in a folder over HTTP as AG-UI (POST /agent/run, Server-Sent Events) and A2A')
    .argument('[dir]', 'agent folder', '.')
    .option('--host <address>', 'address to bind; anything but loopback needs a token', '127.0.0.1')
    .addOption(numberDefault(new Option('--port <number>', 'port to listen on (0 picks a free one)'), 8787))
    .option('--token <secret>', 'bearer token required on /agent/run and /admin (also AUGGY_TOKEN)')
    .addOption(numberDefault(new Option('--max-message-chars <n>', 'refuse a user message longer than this (HTTP 413)'), DEFAULT_MAX_MESSAGE_CHARS))
    .addOption(
      numberDefault(new Option('--max-body-mb <n>', 'refuse a request body larger than this many MiB, history included (HTTP 413)'), DEFAULT_MAX_BODY_MB),
    )
    .addOption(numberDefault(new Option('--grace-ms <ms>', 'on SIGTERM, how long in-flight runs may finish before they are canceled'), 5000))
    .option('--cors-origin <origin>', 'let web pages from this origin (or *) call the server; repeatable', collect, [])
    .option('--allowed-host <name>', 'a name besides the bound address and localhost that clients may use in Host; repeatable', collect, [])
    .option(
      '--interrupt-wait <seconds>',
      'how long a question a run leaves open (an AG-UI interrupt) waits for its answer; unset, it waits as long as it takes',
    )
    .option('--no-a2a', 'do not serve A2A (the Agent Card and POST /a2a); AG-UI only');
  addAllowToolOption(command);
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
  GET  /.well-known/agent-card.json
                    the A2A Agent Card (v1.0): skills, the JSON-RPC endpoint, the bearer scheme
  POST /a2a         A2A JSON-RPC (SendMessage, SendStreamingMessage, GetTask, ListTasks,
                    CancelTask, SubscribeToTask); contextId names the session, a task is a turn
  GET  /health      {"status":"healthy"}
  GET  /admin       the auggy admin report as JSON

A run that asks a question ends with RUN_FINISHED result {status:"input-required", message};
for an AG-UI 1.0 client (it sends protocolVersion) also with outcome {type:"interrupt"}, whose
interrupts the next run answers with resume (see README, "Answering from a web app").
SIGTERM refuses new runs (503 with Retry-After), lets in-flight runs finish for --grace-ms,
cancels the rest, exits 0.

Web pages: a request whose Host is not the bound address, localhost or an --allowed-host name
is refused (403), and so is one from a browser Origin that is not the server's own or a
--cors-origin; POST /agent/run takes Content-Type: application/json only (415).

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
