import jmespath from 'jmespath';
import { z } from 'zod';
import { shown } from './describe.js';
import { assertionType, type CheckResult } from './types.js';

/** PromptKit's extract_json / allow_wrapped: the JSON inside a ```json fence or the first {...} / [...] of the reply. */
function jsonText(text: string, extract: boolean): string {
  if (!extract) return text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  if (fenced) return fenced[1].trim();
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  return start >= 0 && end > start ? text.slice(start, end + 1) : text.trim();
}

function parsed(text: string, extract: boolean): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(jsonText(text, extract)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const extraction = { allow_wrapped: z.boolean().optional(), extract_json: z.boolean().optional() };
const extracts = (params: { allow_wrapped?: boolean; extract_json?: boolean }) => params.allow_wrapped === true || params.extract_json === true;

/** json_valid (PromptKit also is_valid_json, valid_json): the reply is JSON. */
export const jsonValid = assertionType({
  name: 'json_valid',
  aliases: ['is_valid_json', 'valid_json'],
  params: z.looseObject(extraction),
  check(params, scope): CheckResult {
    const result = parsed(scope.text, extracts(params));
    return { passed: result.ok, expected: 'the reply to be valid JSON', actual: result.ok ? 'valid JSON' : `not JSON (${result.error}): ${shown(scope.text)}` };
  },
});

/** PromptKit compares JSON values by their JSON text, so 1 and 1.0 agree and key order does not matter. */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .sort(([x], [y]) => x.localeCompare(y))
          .map(([k, v]) => [k, canonical(v)]),
      );
    }
    return value;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** json_path: a JMESPath expression over the reply's JSON, then expected / contains / min / max / counts, as PromptKit's handler. */
export const jsonPath = assertionType({
  name: 'json_path',
  params: z
    .looseObject({
      expression: z.string().min(1).optional(),
      jmespath_expression: z.string().min(1).optional(),
      expected: z.unknown().optional(),
      contains: z.unknown().optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      min_results: z.number().int().optional(),
      max_results: z.number().int().optional(),
      ...extraction,
    })
    .refine((params) => (params.expression ?? params.jmespath_expression) !== undefined, {
      message: 'needs expression: a JMESPath expression',
      path: ['expression'],
    }),
  check(params, scope): CheckResult {
    const expression = params.expression ?? params.jmespath_expression ?? '';
    const expected = `${expression} in the reply's JSON${params.expected !== undefined ? ` to be ${shown(params.expected)}` : ''}`;
    const data = parsed(scope.text, extracts(params));
    if (!data.ok) return { passed: false, expected, actual: `the reply is not JSON (${data.error})` };
    let result: unknown;
    try {
      result = jmespath.search(data.value as Parameters<typeof jmespath.search>[0], expression);
    } catch (error) {
      return { passed: false, expected, actual: `JMESPath error: ${error instanceof Error ? error.message : String(error)}` };
    }
    const actual = `it is ${shown(result)}`;
    if (params.expected !== undefined && !sameJson(result, params.expected)) return { passed: false, expected, actual };
    if (params.contains !== undefined) {
      const wanted = Array.isArray(params.contains) ? params.contains : [params.contains];
      const within = Array.isArray(result) ? result : [result];
      const haystack = typeof result === 'string' ? result : undefined;
      const missing = wanted.filter((item) => (haystack !== undefined ? !haystack.includes(String(item)) : !within.some((value) => sameJson(value, item))));
      if (missing.length > 0) return { passed: false, expected: `${expression} to contain ${shown(missing)}`, actual };
    }
    if ((params.min !== undefined || params.max !== undefined) && typeof result !== 'number') {
      return { passed: false, expected: `${expression} to be a number`, actual };
    }
    if (typeof result === 'number' && ((params.min !== undefined && result < params.min) || (params.max !== undefined && result > params.max))) {
      return { passed: false, expected: `${expression} between ${params.min ?? '-∞'} and ${params.max ?? '∞'}`, actual };
    }
    const count = Array.isArray(result) ? result.length : undefined;
    if ((params.min_results !== undefined || params.max_results !== undefined) && count === undefined) {
      return { passed: false, expected: `${expression} to be a list`, actual };
    }
    if (
      count !== undefined &&
      ((params.min_results !== undefined && count < params.min_results) || (params.max_results !== undefined && count > params.max_results))
    ) {
      return { passed: false, expected: `${expression} to have ${params.min_results ?? 0}..${params.max_results ?? '∞'} results`, actual: `${count} results` };
    }
    return { passed: true, expected, actual };
  },
});

/** json_schema: the reply's JSON fits the JSON Schema given as `schema`. */
export const jsonSchema = assertionType({
  name: 'json_schema',
  params: z.looseObject({ schema: z.record(z.string(), z.unknown()), ...extraction }),
  check(params, scope): CheckResult {
    const expected = 'the reply to fit the JSON Schema';
    const data = parsed(scope.text, extracts(params));
    if (!data.ok) return { passed: false, expected, actual: `the reply is not JSON (${data.error})` };
    let schema: z.ZodType;
    try {
      schema = z.fromJSONSchema(params.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      return { passed: false, expected, actual: `the schema could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    const checked = schema.safeParse(data.value);
    return { passed: checked.success, expected, actual: checked.success ? 'it fits' : z.prettifyError(checked.error).replace(/\s+/g, ' ') };
  },
});
