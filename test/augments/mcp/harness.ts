import type { KernelEvent } from '../../../src/kernel/events.js';
import type { PersonChannel } from '../../../src/kernel/person.js';
import { NOBODY } from '../../../src/kernel/person.js';
import type { ToolResult } from '../../../src/kernel/tool.js';
import { answerElicitation } from '../../../src/augments/mcp/elicit.js';
import { envLookup } from '../../../src/augments/mcp/interpolate.js';
import { exposedTools, type ToolsContext } from '../../../src/augments/mcp/mcp-tools.js';
import { readMcpConfig } from '../../../src/augments/mcp/read-config.js';
import { answerSampling } from '../../../src/augments/mcp/sampling.js';
import { ServerPool } from '../../../src/augments/mcp/server-pool.js';
import { tempDir, writeFiles } from '../../helpers/temp-dir.js';

/** A pool of real servers from a hand-written `.mcp.json`, as the augment builds it. */
export function poolFor(config: Record<string, unknown>): { pool: ServerPool; dir: string } {
  const dir = tempDir('auggy-mcp-');
  writeFiles(dir, { '.mcp.json': JSON.stringify(config, null, 2) });
  const lookup = envLookup({});
  const read = readMcpConfig(dir, lookup);
  if (read.diagnostics.some((d) => d.severity === 'error')) throw new Error(JSON.stringify(read.diagnostics));
  const pool = new ServerPool(read.servers, lookup, dir, {
    elicit: (server, params, seat, signal) => answerElicitation(server.name, params, seat, signal),
    sample: (server, params, seat, signal) => answerSampling(server, params, seat, signal),
  });
  return { pool, dir };
}

export function toolsContext(pool: ServerPool, allowedTools: string[] = []): ToolsContext {
  return { pool, allowedTools, alwaysAllowed: new Set(), complete: async () => ({ ok: true, text: 'a sampled reply' }), progress: new Map() };
}

let calls = 0;

/** Calls a tool the way the kernel does, collecting the events it emits. */
export async function callTool(
  context: ToolsContext,
  name: string,
  input: unknown,
  options: { person?: PersonChannel; signal?: AbortSignal } = {},
): Promise<{ result: ToolResult; events: KernelEvent[] }> {
  const tool = exposedTools(context).find((candidate) => candidate.name === name);
  if (!tool)
    throw new Error(
      `no tool ${name}; have ${exposedTools(context)
        .map((t) => t.name)
        .join(', ')}`,
    );
  const events: KernelEvent[] = [];
  const result = await tool.run(input, {
    toolCallId: `call_${++calls}`,
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
    person: options.person ?? NOBODY,
  });
  return { result, events };
}
