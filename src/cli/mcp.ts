import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';

export function registerMcp(program: Command, setExitCode: SetExitCode): void {
  const mcp = program.command('mcp').description("the agent's MCP servers (.mcp.json at the agent root)");
  mcp
    .command('list')
    .description('start each MCP server of the folder, list its transport, status and tools, then stop it')
    .argument('[dir]', 'agent folder', '.')
    .option('--json', 'print the servers as JSON')
    .addHelpText(
      'after',
      `
Tools are listed as the model calls them: mcp_<server>_<tool>. Exit codes: 0 every server
started, 1 one or more did not, 2 no agent folder or no mcp augment there.

Examples:
  auggy mcp list
  auggy mcp list examples/demo --json`,
    )
    .action(async (dir: string, options: { json?: boolean }) => {
      const { mcpListCommand } = await import('./mcp-action.js');
      setExitCode(await mcpListCommand(dir, options, (text) => process.stdout.write(text)));
    });
}
