import { z } from 'zod';
import type { ObservedToolCall } from './scope.js';
import { assertionType } from './types.js';
import { listed, shown, stringList } from './describe.js';

/** PromptKit names the tools `tool_names` or `tools` (and its tool_called alias one `tool_name`); each is read. */
const toolNames = z.object({ tool_names: stringList.optional(), tools: stringList.optional(), tool_name: stringList.optional() });
const needsTools = { message: 'needs tools: the tool names, like tools: [request_input]', path: ['tools'] };
const namesOf = (params: { tool_names?: string[]; tools?: string[]; tool_name?: string[] }) => params.tool_names ?? params.tools ?? params.tool_name ?? [];

/** A tool error the kernel produced because the arguments did not fit the tool's schema. */
function isValidationError(call: ObservedToolCall): boolean {
  return call.isError && (call.result.startsWith('Invalid arguments for ') || call.result.includes('were not valid JSON'));
}

function hasArgs(call: ObservedToolCall): boolean {
  return call.input !== null && typeof call.input === 'object' && Object.keys(call.input).length > 0;
}

function calledNames(calls: readonly ObservedToolCall[]): string {
  return calls.length === 0 ? 'no tool was called' : `called: ${calls.map((call) => `${call.name}${call.isError ? ' (error)' : ''}`).join(', ')}`;
}

/** tools_called: each tool was called successfully at least `min_calls` times (and at most `max_calls`). */
export const toolsCalled = assertionType({
  name: 'tools_called',
  aliases: ['tool_called'],
  params: toolNames
    .extend({
      min_calls: z.number().int().min(0).default(1),
      max_calls: z.number().int().min(0).optional(),
      ignore_validation: z.boolean().default(false),
      require_args: z.boolean().default(false),
    })
    .refine((params) => namesOf(params).length > 0, needsTools),
  check(params, scope) {
    const counted = scope.toolCalls.filter(
      (call) => (!call.isError || (params.ignore_validation && isValidationError(call))) && (!params.require_args || hasArgs(call)),
    );
    const countOf = (name: string) => counted.filter((call) => call.name === name).length;
    const names = namesOf(params);
    const under = names.filter((name) => countOf(name) < params.min_calls);
    const over = params.max_calls === undefined ? [] : names.filter((name) => countOf(name) > (params.max_calls ?? Infinity));
    const bounds = params.max_calls === undefined ? `at least ${params.min_calls} time(s)` : `${params.min_calls} to ${params.max_calls} time(s)`;
    const counts = names.map((name) => `${name} ×${countOf(name)}`).join(', ');
    return {
      passed: under.length === 0 && over.length === 0,
      score: over.length > 0 ? 0 : (names.length - under.length) / names.length,
      expected: `${listed(names)} called successfully ${bounds}`,
      actual: `${counts}; ${calledNames(scope.toolCalls)}`,
    };
  },
});

/** tools_not_called: none of the tools was called, successfully or not. */
export const toolsNotCalled = assertionType({
  name: 'tools_not_called',
  params: toolNames.refine((params) => namesOf(params).length > 0, needsTools),
  check(params, scope) {
    const names = namesOf(params);
    const called = [...new Set(scope.toolCalls.filter((call) => names.includes(call.name)).map((call) => call.name))];
    return {
      passed: called.length === 0,
      expected: `${listed(names, 'or')} never called`,
      actual: called.length === 0 ? calledNames(scope.toolCalls) : `${listed(called)} called`,
    };
  },
});

/** How PromptKit compares an argument: text as it is, anything else in its written form. */
function argText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** tool_args: some call of `tool_name` has every one of `expected_args` (other arguments may be there too). */
export const toolArgs = assertionType({
  name: 'tool_args',
  params: z.object({
    tool_name: z.string().min(1),
    expected_args: z.record(z.string(), z.unknown()).refine((args) => Object.keys(args).length > 0, 'needs at least one argument'),
  }),
  check({ tool_name: name, expected_args: expected }, scope) {
    const calls = scope.toolCalls.filter((call) => call.name === name);
    const fits = (input: unknown) =>
      Object.entries(expected).every(([key, value]) => {
        const args = (input ?? {}) as Record<string, unknown>;
        return key in args && argText(args[key]) === argText(value);
      });
    return {
      passed: calls.some((call) => fits(call.input)),
      expected: `${name} called with ${shown(expected)}`,
      actual:
        calls.length === 0
          ? `${name} was not called; ${calledNames(scope.toolCalls)}`
          : `${name} called with ${calls.map((call) => shown(call.input)).join(', then ')}`,
    };
  },
});

/** no_tool_errors: no call (of `tools`, when given) came back as an error. */
export const noToolErrors = assertionType({
  name: 'no_tool_errors',
  params: toolNames.default({}),
  check(params, scope) {
    const names = namesOf(params);
    const failed = scope.toolCalls.filter((call) => call.isError && (names.length === 0 || names.includes(call.name)));
    return {
      passed: failed.length === 0,
      score: scope.toolCalls.length === 0 ? 1 : 1 - failed.length / scope.toolCalls.length,
      expected: names.length === 0 ? 'no tool errors' : `no errors from ${listed(names)}`,
      actual: failed.length === 0 ? `${scope.toolCalls.length} call(s), none failed` : failed.map((call) => `${call.name}: ${shown(call.result)}`).join('; '),
    };
  },
});

/** tool_result_includes: at least `occurrence` results (of `tool`, when given) contain every pattern. */
export const toolResultIncludes = assertionType({
  name: 'tool_result_includes',
  params: z.object({
    tool: z.string().min(1).optional(),
    tool_name: z.string().min(1).optional(),
    patterns: stringList,
    occurrence: z.number().int().min(1).default(1),
  }),
  check(params, scope) {
    const tool = params.tool ?? params.tool_name;
    const calls = scope.toolCalls.filter((call) => tool === undefined || call.name === tool);
    const matching = calls.filter((call) => params.patterns.every((pattern) => call.result.toLowerCase().includes(pattern.toLowerCase())));
    return {
      passed: matching.length >= params.occurrence,
      expected: `${params.occurrence} or more result(s)${tool ? ` of ${tool}` : ''} including ${listed(params.patterns)}`,
      actual:
        calls.length === 0
          ? `no result${tool ? ` of ${tool}` : ''}; ${calledNames(scope.toolCalls)}`
          : `${matching.length} matched; results: ${calls.map((call) => shown(call.result)).join(', ')}`,
    };
  },
});

/** tool_call_count: `tool` (or every tool) was called between `min` and `max` times. */
export const toolCallCount = assertionType({
  name: 'tool_call_count',
  params: z
    .object({ tool: z.string().min(1).optional(), min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })
    .refine((params) => params.min !== undefined || params.max !== undefined, { message: 'needs min or max: the number of calls allowed' }),
  check(params, scope) {
    const count = scope.toolCalls.filter((call) => params.tool === undefined || call.name === params.tool).length;
    const bounds = [params.min !== undefined ? `at least ${params.min}` : '', params.max !== undefined ? `at most ${params.max}` : '']
      .filter(Boolean)
      .join(' and ');
    return {
      passed: count >= (params.min ?? 0) && count <= (params.max ?? Infinity),
      expected: `${bounds} call(s)${params.tool ? ` of ${params.tool}` : ''}`,
      actual: `${count}; ${calledNames(scope.toolCalls)}`,
    };
  },
});
