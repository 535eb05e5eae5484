/**
 * What one auggy process shares across its conversations: long-lived resources (an MCP server's
 * connection, opened once and used by every serve thread) and the host's standing permissions.
 * The host that made the scope closes it when it exits, so nothing it started outlives it.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface HostScope {
  /** `--allow-tool` patterns: tools that may run without the person's yes (`mcp_ops_*`). */
  readonly allowedTools: readonly string[];
  /**
   * What the host hands augments by key, beside the folder's own settings (ACP: the MCP servers
   * an editor gives a session). The kernel reads none of it; the augment that owns a key does.
   */
  readonly supplied: Readonly<Record<string, unknown>>;
  /** The resource under `key`, made by `create` the first time it is asked for. */
  obtain<T extends Closable>(key: string, create: () => T): T;
  /** Closes every resource, newest first; safe to call twice. */
  close(): Promise<void>;
}

export function createHostScope(options: { allowedTools?: readonly string[]; supplied?: Record<string, unknown> } = {}): HostScope {
  const resources = new Map<string, Closable>();
  return {
    allowedTools: [...(options.allowedTools ?? [])],
    supplied: { ...options.supplied },
    obtain<T extends Closable>(key: string, create: () => T): T {
      const existing = resources.get(key);
      if (existing) return existing as T;
      const made = create();
      resources.set(key, made);
      return made;
    },
    async close() {
      const all = [...resources.values()].reverse();
      resources.clear();
      // One resource failing to close must not keep the others open.
      await Promise.allSettled(all.map((resource) => resource.close()));
    },
  };
}
