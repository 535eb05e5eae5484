import { createHash } from 'node:crypto';

/** OpenAI and Gemini take tool names of at most 64 of `[a-zA-Z0-9_-]`; one longer name fails every request. */
export const MAX_TOOL_NAME = 64;
const HASH_LENGTH = 8;

/** Letters, digits and _ only, as provider tool names require; real auggy names tools the same way. */
function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9_]/g, '_').replace(/^([^A-Za-z_])/, '_$1');
}

/** `mcp_<server>_<tool>` as written, before any shortening: what real auggy's skills name. */
function plainName(server: string, tool: string): string {
  return `mcp_${safeName(server)}_${safeName(tool)}`;
}

/** A long server name keeps this much, so the tool's own name still shows in a shortened one. */
const SERVER_PART = 20;

/** Server and tool cut to fit, then `_` and a hash of the exact server and tool names: stable across runs, unique. */
function hashedName(server: string, tool: string): string {
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
  const serverPart = safeName(server).slice(0, SERVER_PART);
  const room = MAX_TOOL_NAME - `mcp_${serverPart}_`.length - HASH_LENGTH - 1;
  return `mcp_${serverPart}_${safeName(tool).slice(0, room)}_${hash}`;
}

/**
 * `mcp_<server>_<tool>`: the name the model calls, so real auggy's skills keep working; a name
 * past 64 characters is cut and given a short hash of what it stands for.
 */
export function exposedToolName(server: string, tool: string): string {
  const plain = plainName(server, tool);
  return plain.length <= MAX_TOOL_NAME ? plain : hashedName(server, tool);
}

/** One server's tools named for the model, by their own name: two that read alike once made safe (a-b, a_b) get a hash each after the first. */
export function exposedNamesOf(server: string, tools: readonly { name: string }[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const tool of tools) {
    let name = exposedToolName(server, tool.name);
    if (taken.has(name)) name = hashedName(server, tool.name);
    taken.add(name);
    names.set(tool.name, name);
  }
  return names;
}

/** The tools whose exposed name is not the plain `mcp_<server>_<tool>`, for `mcp list`, admin and validate. */
export function shortenedNames(server: string, names: ReadonlyMap<string, string>): { tool: string; exposed: string }[] {
  return [...names].filter(([tool, exposed]) => exposed !== plainName(server, tool)).map(([tool, exposed]) => ({ tool, exposed }));
}

/** The server among `servers` whose tools the exposed name is one of (the longest name wins a shared prefix). */
export function serverOfExposedTool(toolName: string, servers: readonly string[]): string | undefined {
  return servers
    .filter((server) => toolName.startsWith(`mcp_${safeName(server)}_`) || toolName.startsWith(`mcp_${safeName(server).slice(0, SERVER_PART)}_`))
    .sort((a, b) => b.length - a.length)
    .at(0);
}

export function matchesPattern(pattern: string, name: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return regex.test(name);
}

/** True when a policy list names the tool, by its own name or by the name the model sees. */
export function listNames(list: readonly string[] | undefined, tool: string, exposed: string): boolean {
  return list?.some((entry) => entry === tool || entry === exposed) ?? false;
}
