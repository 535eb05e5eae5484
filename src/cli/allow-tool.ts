import type { LoadedAgent } from '../agent/types.js';
import { createHostScope, type HostScope } from '../kernel/host-scope.js';
import { UsageError } from '../hosts/exit-codes.js';

/** Letters, digits, _ and -, with `*` and `?` as wildcards: a tool name or a glob of them. */
const PATTERN = /^[A-Za-z0-9_*?-]+$/;

/**
 * The process's scope for `run` and `serve`, with `--allow-tool` checked first: a pattern that
 * cannot match a tool name, or one given to an agent with no MCP tools, is a usage error.
 */
export function hostScopeFor(agent: LoadedAgent, patterns: readonly string[] = []): HostScope {
  for (const pattern of patterns) {
    if (!PATTERN.test(pattern)) {
      throw new UsageError(
        `--allow-tool ${JSON.stringify(pattern)} is not a tool name or pattern; use letters, digits, _ and - with * or ?, such as mcp_ops_*`,
      );
    }
  }
  if (patterns.length > 0 && !agent.augments.some((augment) => augment.type === 'mcp')) {
    throw new UsageError('--allow-tool lets MCP tools run without asking, but this agent does not list the mcp augment in agent.yaml');
  }
  return createHostScope({ allowedTools: patterns });
}
