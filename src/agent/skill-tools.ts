import type { LoadedAgent, LoadedSkill, AugmentType } from './types.js';

/** A code span that names a tool: snake_case (`fs_read`, `workflow__transition`), maybe called (`notify(to)`). */
const TOOL_SPAN = /`([a-z][a-z0-9]*(?:_{1,2}[a-z0-9]+)+)(\([^`]*\))?`/g;

/** Words that put a code span in a tool's context: "call `x`", "use `x`", "the `x` tool". */
const TOOL_CONTEXT = /\b(call|calls|calling|called|use|using|invoke|tool|tools)\b/i;

/** Servers' tools are known only once connected, so any `mcp_` name counts as offered when mcp is on. */
const DYNAMIC_PREFIXES: Readonly<Record<string, string>> = { mcp: 'mcp_' };

export interface OfferedTools {
  names: Set<string>;
  prefixes: string[];
}

/** Every tool the enabled augments can offer, as their admin description lists them. */
export function offeredTools(agent: LoadedAgent, types: readonly AugmentType[]): OfferedTools {
  const names = new Set<string>();
  const prefixes: string[] = [];
  for (const config of agent.augments) {
    const factory = types.find((known) => known.type === config.type);
    if (!factory) continue;
    for (const name of factory.describe(agent, config.config).tools) names.add(name);
    const prefix = DYNAMIC_PREFIXES[config.type];
    if (prefix) prefixes.push(prefix);
  }
  return { names, prefixes };
}

/** The tool names a skill tells the model to use, in order of first mention. */
export function toolsNamedIn(body: string): string[] {
  const found: string[] = [];
  for (const line of body.split('\n')) {
    for (const match of line.matchAll(TOOL_SPAN)) {
      const called = match[2] !== undefined || TOOL_CONTEXT.test(line);
      if (called && !found.includes(match[1])) found.push(match[1]);
    }
  }
  return found;
}

/**
 * The tools a skill names when none of them is offered, or undefined when the skill names none
 * or at least one is there (a skill may mention alternatives it does not need).
 */
export function missingTools(skill: LoadedSkill, offered: OfferedTools): string[] | undefined {
  const named = toolsNamedIn(skill.body);
  if (named.length === 0) return undefined;
  const isOffered = (name: string) => offered.names.has(name) || offered.prefixes.some((prefix) => name.startsWith(prefix));
  return named.some(isOffered) ? undefined : named;
}
