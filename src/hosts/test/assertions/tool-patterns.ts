import { z } from 'zod';
import { patternMatches } from './bounded-match.js';
import { listed, regexSource, shown, stringList } from './describe.js';
import type { ObservedToolCall } from './scope.js';
import { assertionType, type CheckResult } from './types.js';

function argsOf(call: ObservedToolCall): Record<string, unknown> {
  return call.input !== null && typeof call.input === 'object' && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
}

/** PromptKit compares argument values as text (`asString`): 3 and "3" agree. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const names = (calls: readonly ObservedToolCall[]) => (calls.length === 0 ? 'no tool was called' : `called: ${calls.map((call) => call.name).join(', ')}`);

/** tool_calls_with_args: every call of tool_name has expected_args (exact), args_match (patterns), result_includes / result_matches / no_error. */
export const toolCallsWithArgs = assertionType({
  name: 'tool_calls_with_args',
  params: z.looseObject({
    tool_name: z.string().min(1).optional(),
    expected_args: z.record(z.string(), z.unknown()).optional(),
    args_match: z.record(z.string(), regexSource).optional(),
    result_includes: stringList.optional(),
    result_matches: regexSource.optional(),
    no_error: z.boolean().optional(),
  }),
  check(params, scope): CheckResult {
    const matching = scope.toolCalls.filter((call) => params.tool_name === undefined || call.name === params.tool_name);
    const expected = `every call of ${params.tool_name ?? 'any tool'} to have the given arguments and results`;
    if (params.tool_name !== undefined && matching.length === 0)
      return { passed: false, expected, actual: `${params.tool_name} was not called; ${names(scope.toolCalls)}` };
    const violations: string[] = [];
    for (const call of matching) {
      const args = argsOf(call);
      for (const [name, value] of Object.entries(params.expected_args ?? {})) {
        if (!(name in args)) violations.push(`${call.name} has no ${name}`);
        else if (value !== null && asText(args[name]) !== asText(value)) violations.push(`${call.name} ${name} is ${shown(args[name])}, not ${shown(value)}`);
      }
      for (const [name, pattern] of Object.entries(params.args_match ?? {})) {
        if (!(name in args)) violations.push(`${call.name} has no ${name}`);
        else if (!patternMatches(pattern, asText(args[name]))) violations.push(`${call.name} ${name} ${shown(args[name])} does not match /${pattern}/`);
      }
      for (const text of params.result_includes ?? []) if (!call.result.includes(text)) violations.push(`${call.name}'s result lacks ${shown(text)}`);
      if (params.result_matches !== undefined && !patternMatches(params.result_matches, call.result))
        violations.push(`${call.name}'s result does not match /${params.result_matches}/`);
      if (params.no_error === true && call.isError) violations.push(`${call.name} failed`);
    }
    return {
      passed: violations.length === 0,
      expected,
      actual: violations.length === 0 ? `${matching.length} matching call(s), all fit` : violations.join('; '),
    };
  },
});

/** tool_call_sequence: the tools were called in this order (others may come between). */
export const toolCallSequence = assertionType({
  name: 'tool_call_sequence',
  params: z.looseObject({ sequence: z.array(z.string().min(1)).default([]) }),
  check(params, scope): CheckResult {
    let matched = 0;
    for (const call of scope.toolCalls) if (matched < params.sequence.length && call.name === params.sequence[matched]) matched++;
    return {
      passed: matched === params.sequence.length,
      score: params.sequence.length === 0 ? 1 : matched / params.sequence.length,
      expected: `tools called in the order ${params.sequence.join(' → ') || '(any)'}`,
      actual: `${matched} of ${params.sequence.length} in order; ${names(scope.toolCalls)}`,
    };
  },
});

/** tool_no_repeat: no tool (of `tools`, when given) called more than max_repeats times in a row (default 1). */
export const toolNoRepeat = assertionType({
  name: 'tool_no_repeat',
  params: z.looseObject({ tools: stringList.optional(), max_repeats: z.number().int().min(1).default(1) }),
  check(params, scope): CheckResult {
    const found: string[] = [];
    let run = 1;
    for (let i = 1; i < scope.toolCalls.length; i++) {
      run = scope.toolCalls[i].name === scope.toolCalls[i - 1].name ? run + 1 : 1;
      const name = scope.toolCalls[i].name;
      if (run > params.max_repeats && (params.tools === undefined || params.tools.includes(name))) found.push(`${name}(${run}x)`);
    }
    return {
      passed: found.length === 0,
      expected: `no tool called more than ${params.max_repeats} time(s) in a row`,
      actual: found.length === 0 ? names(scope.toolCalls) : `repeated: ${found.join(', ')}`,
    };
  },
});

/** tool_result_matches: at least `occurrence` results (of `tool`, when given) match the pattern. */
export const toolResultMatches = assertionType({
  name: 'tool_result_matches',
  params: z.looseObject({ tool: z.string().min(1).optional(), pattern: regexSource, occurrence: z.number().int().min(1).default(1) }),
  check(params, scope): CheckResult {
    const count = scope.toolCalls.filter(
      (call) => (params.tool === undefined || call.name === params.tool) && patternMatches(params.pattern, call.result),
    ).length;
    return {
      passed: count >= params.occurrence,
      expected: `${params.occurrence} result(s) of ${params.tool ?? 'any tool'} matching /${params.pattern}/`,
      actual: `${count} matched; ${names(scope.toolCalls)}`,
    };
  },
});

/** tool_args_excluded_session (PromptKit also tools_not_called_with_args): tool_name was never called with these argument values. */
export const toolArgsExcluded = assertionType({
  name: 'tool_args_excluded_session',
  aliases: ['tools_not_called_with_args'],
  params: z.looseObject({
    tool_name: z.string().min(1),
    excluded_args: z.record(z.string(), z.unknown()).optional(),
    forbidden_args: z.record(z.string(), z.array(z.unknown())).optional(),
  }),
  check(params, scope): CheckResult {
    const forbidden = new Map<string, string[]>();
    for (const [name, value] of Object.entries(params.excluded_args ?? {})) forbidden.set(name, [asText(value)]);
    for (const [name, values] of Object.entries(params.forbidden_args ?? {})) forbidden.set(name, [...(forbidden.get(name) ?? []), ...values.map(asText)]);
    const found = scope.toolCalls
      .filter((call) => call.name === params.tool_name)
      .flatMap((call) => {
        const args = argsOf(call);
        return [...forbidden].filter(([name, values]) => name in args && values.includes(asText(args[name]))).map(([name]) => `${name}=${asText(args[name])}`);
      });
    return {
      passed: found.length === 0,
      expected: `${params.tool_name} never called with ${listed([...forbidden.keys()])} set to the excluded values`,
      actual: found.length === 0 ? 'none were' : `called with ${found.join(', ')}`,
    };
  },
});

/** tool_call_chain: the steps' tools were called in order, each step's call meeting its result and argument checks. */
export const toolCallChain = assertionType({
  name: 'tool_call_chain',
  params: z.looseObject({
    steps: z
      .array(
        z.looseObject({
          tool: z.string().min(1),
          result_includes: stringList.optional(),
          result_matches: regexSource.optional(),
          args_match: z.record(z.string(), regexSource).optional(),
          no_error: z.boolean().optional(),
        }),
      )
      .min(1),
  }),
  check(params, scope): CheckResult {
    let step = 0;
    for (const call of scope.toolCalls) {
      const want = params.steps[step];
      if (!want || call.name !== want.tool) continue;
      const args = argsOf(call);
      const fits =
        (want.result_includes ?? []).every((text) => call.result.includes(text)) &&
        (want.result_matches === undefined || patternMatches(want.result_matches, call.result)) &&
        Object.entries(want.args_match ?? {}).every(([name, pattern]) => name in args && patternMatches(pattern, asText(args[name]))) &&
        !(want.no_error === true && call.isError);
      if (fits) step++;
    }
    return {
      passed: step === params.steps.length,
      score: step / params.steps.length,
      expected: `the chain ${params.steps.map((s) => s.tool).join(' → ')}`,
      actual: `${step} of ${params.steps.length} steps met; ${names(scope.toolCalls)}`,
    };
  },
});
