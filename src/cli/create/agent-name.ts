/** Names that are folders nobody wants to create an agent in, or that Windows cannot hold. */
const RESERVED = new Set([
  'node_modules',
  'favicon.ico',
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 9 }, (_, i) => [`com${i + 1}`, `lpt${i + 1}`]).flat(),
]);

/** Same limit npm puts on package names. */
const MAX_LENGTH = 214;

/** A usable version of a rejected name, to suggest: `My Agent!` → `my-agent`. */
export function suggestName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .replace(/-+$/, '')
    .slice(0, MAX_LENGTH);
}

function withSuggestion(problem: string, name: string): string {
  const suggestion = suggestName(name);
  return suggestion !== '' && suggestion !== name && !RESERVED.has(suggestion) ? `${problem}; try ${suggestion}` : problem;
}

/**
 * Why `name` cannot name a new agent (it becomes the folder and agent.yaml's `name`, and should
 * work as a package name), or undefined when it can.
 */
export function agentNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'the agent name is empty; give one, like: auggy create my-agent';
  if (/[/\\]/.test(name)) return `"${name}" has a path separator; give a plain name and choose where it goes with --dir <parent>`;
  if (name.startsWith('.')) return withSuggestion(`"${name}" starts with "."; that would be a hidden folder`, name);
  if (name.startsWith('-')) return withSuggestion(`"${name}" starts with "-"; it would read as an option`, name);
  if (name.length > MAX_LENGTH) return `"${name}" is longer than ${MAX_LENGTH} characters; choose a shorter name`;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) {
    return withSuggestion(
      `"${name}" can only use lowercase letters, digits, "-", "_" and ".", starting with a letter or digit (it names the folder and the package)`,
      name,
    );
  }
  if (RESERVED.has(name)) return `"${name}" is a reserved name; choose another`;
  return undefined;
}

/** `my-agent` → `My Agent`, the display name offered by default. */
export function defaultDisplayName(name: string): string {
  return name
    .split(/[-_.]+/)
    .filter((word) => word !== '')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}
