import { z } from 'zod';
import type { Diagnostic } from '../../../agent/types.js';
import { schemaDiagnostics } from '../../../agent/schema-issues.js';
import { didYouMean } from '../../../agent/suggest.js';
import { formatFieldPath, locateField, type FieldPath, type YamlSource } from '../../../agent/yaml-source.js';
import { ASSERTION_TYPES, assertionNames, findAssertionType, WRAPPER_TYPE } from '../assertions/registry.js';
import type { AssertionType, CheckContext, CheckResult } from '../assertions/types.js';
import type { Scope } from '../assertions/scope.js';
import { assertionEntrySchema } from './scenario-schema.js';
import type { CompiledAssertion } from './types.js';

type Check = (scope: Scope, context: CheckContext) => Promise<CheckResult>;
type Compiled = { check: Check } | { diagnostics: Diagnostic[] };

function at(source: YamlSource, path: FieldPath, message: string): Diagnostic {
  const position = locateField(source, path);
  return { severity: 'error', file: source.file, line: position?.line, column: position?.column, field: formatFieldPath(path), message };
}

function unknownType(source: YamlSource, path: FieldPath, name: string): Diagnostic {
  const suggestion = didYouMean(name, assertionNames());
  const choices = suggestion || `; use one of ${ASSERTION_TYPES.map((type) => type.name).join(', ')} (or ${WRAPPER_TYPE}, PromptKit's threshold wrapper)`;
  return at(source, path, `"${name}" is not an assertion type auggy runs${choices}`);
}

/** One type with its params checked now, so a scenario never fails at run time for how it was written. */
function compileType(type: AssertionType, params: unknown, source: YamlSource, paramsPath: FieldPath): Compiled {
  const parsed = type.params.safeParse(params ?? {});
  if (!parsed.success) return { diagnostics: schemaDiagnostics(parsed.error.issues, source, { fieldPrefix: paramsPath }) };
  const value = parsed.data;
  return { check: async (scope, context) => type.check(value, scope, context) };
}

const wrapperParams = z.object({
  eval_type: z.string().min(1),
  eval_params: z.record(z.string(), z.unknown()).nullish(),
  min_score: z.number().min(0).max(1).optional(),
  max_score: z.number().min(0).max(1).optional(),
});

/** PromptKit's `type: assertion`: the inner check's score must lie within min_score..max_score. */
function compileWrapper(params: unknown, source: YamlSource, paramsPath: FieldPath): Compiled {
  const parsed = wrapperParams.safeParse(params ?? {});
  if (!parsed.success) return { diagnostics: schemaDiagnostics(parsed.error.issues, source, { fieldPrefix: paramsPath }) };
  const { eval_type: name, eval_params: innerParams, min_score: min, max_score: max } = parsed.data;
  const type = findAssertionType(name);
  if (!type) return { diagnostics: [unknownType(source, [...paramsPath, 'eval_type'], name)] };
  const inner = compileType(type, innerParams, source, [...paramsPath, 'eval_params']);
  if ('diagnostics' in inner) return inner;
  if (min === undefined && max === undefined) return inner;
  return {
    check: async (scope, context) => {
      const result = await inner.check(scope, context);
      const score = result.score ?? (result.passed ? 1 : 0);
      const range = [min !== undefined ? `≥ ${min}` : '', max !== undefined ? `≤ ${max}` : ''].filter(Boolean).join(' and ');
      return {
        ...result,
        passed: score >= (min ?? 0) && score <= (max ?? 1),
        expected: `${result.expected}, with a score ${range}`,
        actual: `score ${score}; ${result.actual}`,
      };
    },
  };
}

/** Checks one `assertions:` entry; diagnostics point at the line the problem is written on. */
export function compileAssertion(raw: unknown, path: FieldPath, source: YamlSource): { assertion?: CompiledAssertion; diagnostics: Diagnostic[] } {
  const entry = assertionEntrySchema.safeParse(raw);
  if (!entry.success) return { diagnostics: schemaDiagnostics(entry.error.issues, source, { fieldPrefix: path }) };
  const { type: name, params, message, when, pass_threshold: passThreshold } = entry.data;
  const paramsPath = [...path, 'params'];
  let compiled: Compiled;
  if (name === WRAPPER_TYPE) compiled = compileWrapper(params, source, paramsPath);
  else {
    const type = findAssertionType(name);
    compiled = type ? compileType(type, params, source, paramsPath) : { diagnostics: [unknownType(source, [...path, 'type'], name)] };
  }
  if ('diagnostics' in compiled) return { diagnostics: compiled.diagnostics };
  const position = locateField(source, path);
  const shownName = name === WRAPPER_TYPE ? `${WRAPPER_TYPE}(${String(params?.eval_type)})` : name;
  // PromptKit's own examples write the message inside params; either place is read.
  const said = message ?? (typeof params?.message === 'string' ? params.message : undefined);
  return {
    assertion: { type: shownName, line: position?.line, column: position?.column, message: said, when, passThreshold, run: compiled.check },
    diagnostics: [],
  };
}
