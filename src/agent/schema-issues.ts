import type { z } from 'zod';
import type { Diagnostic, Severity } from './types.js';
import { didYouMean } from './suggest.js';
import { formatFieldPath, locateField, valueAt, type YamlSource } from './yaml-source.js';

type Issue = z.core.$ZodIssue;

/** How a missing field is written, keyed by field path, so the fix can be copied. */
export type FieldExamples = Readonly<Record<string, string>>;

function quote(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

function kindOf(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'true/false' : 'text'} (${quote(value)})`;
}

function expectedKind(expected: string): string {
  switch (expected) {
    case 'object':
      return 'a mapping of keys';
    case 'array':
      return 'a list';
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    default:
      return expected;
  }
}

/**
 * One sentence saying what is wrong with `value` and how to fix it, in place of zod's generic
 * wording. Exported so augment config checks can word their findings the same way.
 */
export function describeIssue(issue: Issue, value: unknown, field: string, examples: FieldExamples): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (value === undefined) {
        const example = examples[field];
        return example ? `is required; add ${example}` : 'is required; add it';
      }
      if (value === null) return `is empty; give it ${expectedKind(issue.expected)} or remove the line`;
      return `must be ${expectedKind(issue.expected)}, not ${kindOf(value)}`;
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      return `${quote(value)} is not one of ${allowed.join(', ')}${didYouMean(String(value), allowed)}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `needs at least ${String(issue.minimum)} item(s)`;
      return `must be at least ${String(issue.minimum)}, not ${quote(value)}`;
    case 'too_big':
      if (issue.origin === 'string') return `is too long (at most ${String(issue.maximum)} characters)`;
      return `must be at most ${String(issue.maximum)}, not ${quote(value)}`;
    case 'invalid_format':
      if (issue.format === 'url') return `${quote(value)} is not a URL; write it in full, like http://127.0.0.1:11434/v1`;
      return `${quote(value)} ${issue.message}`;
    default:
      return issue.message;
  }
}

/** Turns zod issues on a YAML file's data into diagnostics at the line of each offending field. */
export function schemaDiagnostics(
  issues: readonly Issue[],
  source: YamlSource,
  options: { severity?: Severity; fieldPrefix?: readonly (string | number)[]; examples?: FieldExamples } = {},
): Diagnostic[] {
  return issues.map((issue) => {
    const path = [...(options.fieldPrefix ?? []), ...issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))];
    const field = formatFieldPath(path);
    const position = locateField(source, path);
    return {
      severity: options.severity ?? 'error',
      file: source.file,
      line: position?.line,
      column: position?.column,
      field: field === '' ? undefined : field,
      message: describeIssue(issue, valueAt(source.data, path), field, options.examples ?? {}),
    };
  });
}
