import type { Tool } from '@ag-ui/core';
import { z } from 'zod';
import { defineTool, type KernelTool } from '../../kernel/tool.js';

/** What a frontend tool may be called with: its JSON Schema as zod, or any object when that cannot be read. */
function inputSchemaOf(tool: Tool): z.ZodType {
  const parameters: unknown = tool.parameters;
  if (parameters === undefined || typeof parameters !== 'object' || parameters === null) return z.looseObject({});
  try {
    return z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A schema zod cannot read still lets the tool be offered; the page checks its own input.
    return z.looseObject({});
  }
}

/**
 * A tool the web page runs itself (AG-UI `RunAgentInput.tools`): the model may call it like any
 * other; the call is streamed to the client and left open, and the turn ends until the client's
 * next run brings its result.
 */
export function clientTool(tool: Tool): KernelTool {
  return defineTool({
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    execute: () => ({ content: '', deferred: true }),
  });
}

/** The tools a run's input offers, each name once; names that cannot name a tool are skipped. */
export function clientTools(tools: readonly Tool[]): KernelTool[] {
  const seen = new Set<string>();
  return tools.flatMap((tool) => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name) || seen.has(tool.name)) return [];
    seen.add(tool.name);
    return [clientTool(tool)];
  });
}
