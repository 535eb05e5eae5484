import { z } from 'zod';
import { didYouMean } from '../../../agent/suggest.js';
import { compilePattern } from '../../../augments/go-pattern.js';

export { compilePattern };

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
export const stringList = z.union(
  [
    z
      .string()
      .min(1)
      .transform((value) => [value]),
    z.array(z.string().min(1)).min(1),
  ],
  {
    error: (issue) =>
      issue.input === undefined ? 'is required: a text or a list of texts' : `must be a text or a non-empty list of texts, not ${JSON.stringify(issue.input)}`,
  },
);

/** One of `values`, or a non-empty list of them; the message names the choices and the likely one. */
export function oneOrMany<const T extends readonly [string, ...string[]]>(values: T) {
  const choices = values.join(', ');
  return z.union([z.enum(values).transform((value) => [value]), z.array(z.enum(values)).min(1)], {
    error: (issue) => {
      if (issue.input === undefined) return `is required: one of ${choices}`;
      const written = Array.isArray(issue.input) ? issue.input.find((value) => !values.includes(value)) : issue.input;
      return `${JSON.stringify(written)} is not one of ${choices}${didYouMean(String(written), values)}`;
    },
  });
}

/** A mapping whose unknown keys are refused with the keys it does take, so a typo is caught where it is written. */
export function strictShape<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const hint = issue.keys.map((key) => didYouMean(key, known)).find((text) => text !== '') ?? `; it takes ${known.join(', ')}`;
      return `unknown key ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}${hint}`;
    },
  });
}

/** A regular expression written in a scenario (Go's syntax, as PromptKit writes it); checked when the file loads. */
export const regexSource = z
  .string()
  .min(1)
  .refine((source) => {
    try {
      compilePattern(source);
      return true;
    } catch {
      return false;
    }
  }, 'is not a valid regular expression');
