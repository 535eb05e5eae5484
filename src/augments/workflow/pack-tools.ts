import { z } from 'zod';
import type { KernelTool } from '../../kernel/tool.js';
import type { PackFile } from './pack-schema.js';

/** A tool the pack implements itself: PromptKit's `mode: mock` with a static `mock_result`. */
export interface PackMockTool {
  name: string;
  description: string;
  parameters: unknown;
  result: unknown;
}

/** The pack's tools that carry their own mock result; the others need an augment or MCP server. */
export function packMockTools(pack: PackFile): PackMockTool[] {
  return Object.entries(pack.tools ?? {}).flatMap(([key, tool]) => {
    const raw = tool as Record<string, unknown>;
    if (!('mock_result' in raw)) return [];
    return [{ name: tool.name ?? key, description: tool.description ?? key, parameters: raw.parameters ?? { type: 'object' }, result: raw.mock_result }];
  });
}

function schemaOf(parameters: unknown): z.ZodType {
  try {
    return z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
}

/** A mock tool as the kernel runs it: the arguments checked by the pack's schema, the pack's result returned. */
export function mockKernelTool(tool: PackMockTool): KernelTool {
  const schema = schemaOf(tool.parameters);
  return {
    name: tool.name,
    description: `${tool.description}\n\n(A mock tool of the PromptPack: it answers with the pack's fixed result.)`,
    inputSchema: schema,
    async run(input) {
      const checked = schema.safeParse(input ?? {});
      if (!checked.success) return { isError: true, content: `Invalid arguments for ${tool.name}: ${z.prettifyError(checked.error)}` };
      return { content: typeof tool.result === 'string' ? tool.result : JSON.stringify(tool.result) };
    },
  };
}
