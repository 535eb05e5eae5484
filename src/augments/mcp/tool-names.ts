/** Letters, digits and _ only, as provider tool names require; real auggy names tools the same way. */
function safeName(value: string): string {
  return value
    .replace(/[^A-Za-z0-9_]/g, '_')
    .replace(/^([^A-Za-z_])/, '_$1')
    .slice(0, 48);
}

/** `mcp_<server>_<tool>`: the name the model calls, so real auggy's skills keep working. */
export function exposedToolName(server: string, tool: string): string {
  return `mcp_${safeName(server)}_${safeName(tool)}`;
}

/** The server among `servers` whose tools the exposed name is one of (the longest name wins a shared prefix). */
export function serverOfExposedTool(toolName: string, servers: readonly string[]): string | undefined {
  return servers
    .filter((server) => toolName.startsWith(`mcp_${safeName(server)}_`))
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
