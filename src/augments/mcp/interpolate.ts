/** `${NAME}` or `${NAME:-fallback}`, as Claude Code and real auggy write them in .mcp.json. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Lookup = (name: string) => string | undefined;

/** The agent's .env first, then the environment: the folder's own settings win. */
export function envLookup(dotEnv: Readonly<Record<string, string>>, processEnv: NodeJS.ProcessEnv = process.env): Lookup {
  return (name) => {
    const value = dotEnv[name] ?? processEnv[name];
    return value === undefined || value === '' ? undefined : value;
  };
}

/** Fills the variables of one string; `missing` names those with no value and no fallback. */
export function interpolate(text: string, lookup: Lookup): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
    const found = lookup(name);
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, missing };
}

/** Every string of a server entry that may hold variables, by its dotted field under the server. */
export function interpolatedFields(entry: Record<string, unknown>): [field: string, text: string][] {
  const fields: [string, string][] = [];
  for (const key of ['command', 'cwd', 'url'] as const) {
    const value = entry[key];
    if (typeof value === 'string') fields.push([key, value]);
  }
  if (Array.isArray(entry.args)) entry.args.forEach((arg, index) => typeof arg === 'string' && fields.push([`args[${index}]`, arg]));
  for (const key of ['env', 'headers'] as const) {
    const record = entry[key];
    if (record && typeof record === 'object' && !Array.isArray(record)) {
      for (const [name, value] of Object.entries(record)) if (typeof value === 'string') fields.push([`${key}.${name}`, value]);
    }
  }
  return fields;
}
