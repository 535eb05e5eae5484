#!/usr/bin/env node
// Relays a stdio MCP server unchanged and records the JSON-RPC lines both ways, so tests can see
// what auggy really sent (a cancellation, an elicitation answer). Usage:
//   node mcp-tap.mjs <log file> <command> [args...]
// The log gets `pid <n>` (the server's pid) first, then `> line` (to the server) and `< line`.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
appendFileSync(log, `pid ${child.pid}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  appendFileSync(log, `> ${line}\n`);
  child.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());
createInterface({ input: child.stdout }).on('line', (line) => {
  appendFileSync(log, `< ${line}\n`);
  process.stdout.write(`${line}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  appendFileSync(log, `exit ${code ?? signal}\n`);
  process.exit(code ?? 1);
});
