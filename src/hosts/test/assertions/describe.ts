import { z } from 'zod';

const MAX_SHOWN = 240;

/** A value in a report line: text quoted and cut to a readable length, anything else as JSON. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value.replace(/\s+/g, ' ').trim()) : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 2)}…${text.at(-1) === '"' ? '"' : ''}` : text;
}

/** `"a", "b" and "c"` */
export function listed(values: readonly string[], word = 'and'): string {
  const quoted = values.map((value) => JSON.stringify(value));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${word} ${quoted.at(-1)}`;
}

/** One string or a non-empty list of them, as PromptKit's `patterns`, `tools` and `sequence` are written. */
export const stringList = z.union([z.string().min(1).transform((value) => [value]), z.array(z.string().min(1)).min(1)]);

/** A regular expression written in a scenario; checked when the file loads. */
export const regexSource = z.string().min(1).refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'is not a valid regular expression');

/**
 * PromptKit writes Go regular expressions; the inline flags they open with (`(?i)`, `(?s)`) are
 * read as JavaScript flags so those patterns work here unchanged.
 */
export function compilePattern(source: string, extraFlags = ''): RegExp {
  const inline = /^\(\?([imsu]+)\)/.exec(source);
  const flags = new Set([...(inline?.[1] ?? ''), ...extraFlags]);
  return new RegExp(inline ? source.slice(inline[0].length) : source, [...flags].join(''));
}
