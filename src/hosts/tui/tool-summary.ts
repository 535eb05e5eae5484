function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function shorten(text: string, max: number): string {
  const flat = flatten(text);
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shorten(value, 40));
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? `[${value.length}]` : '{…}';
}

/**
 * Tool arguments in a few words: `prompt: "Which service…", reason: "two targets"`. Arguments
 * still streaming (not yet valid JSON) are shown as they are.
 */
export function summarizeArgs(raw: string, max = 60): string {
  if (raw.trim() === '') return '';
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return shorten(
        Object.entries(parsed)
          .map(([key, value]) => `${key}: ${describeValue(value)}`)
          .join(', '),
        max,
      );
    }
    return shorten(describeValue(parsed), max);
  } catch {
    return shorten(raw, max);
  }
}

/** A tool result in one line: its first line, and how many more there were. */
export function summarizeResult(content: string, max = 80): string {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return '(empty)';
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : '';
  return shorten(lines[0], Math.max(10, max - more.length)) + more;
}
