import type { CheckContext } from '../assertions/types.js';
import type { Scope } from '../assertions/scope.js';
import { patternMatches } from '../assertions/bounded-match.js';
import type { AssertionWhen, CompiledAssertion } from '../scenario/types.js';

export interface AssertionOutcome {
  type: string;
  line?: number;
  column?: number;
  message?: string;
  status: 'passed' | 'failed' | 'skipped';
  expected: string;
  actual: string;
  passThreshold?: number;
}

/** Why PromptKit's `when` does not hold for this scope, or undefined when it does. */
function unmet(when: AssertionWhen | undefined, scope: Scope): string | undefined {
  if (!when) return undefined;
  const names = scope.toolCalls.map((call) => call.name);
  if (when.tool_called !== undefined && !names.includes(when.tool_called)) return `${when.tool_called} was not called`;
  if (when.tool_called_pattern !== undefined) {
    const source = when.tool_called_pattern;
    if (!names.some((name) => patternMatches(source, name))) return `no tool matching /${when.tool_called_pattern}/ was called`;
  }
  if (when.any_tool_called && names.length === 0) return 'no tool was called';
  if (when.min_tool_calls !== undefined && names.length < when.min_tool_calls) return `${names.length} tool call(s), fewer than ${when.min_tool_calls}`;
  return undefined;
}

/** Runs each assertion against the scope; a check that throws is a failure that says why, never a pass. */
export async function evaluateAll(assertions: readonly CompiledAssertion[], scope: Scope, context: CheckContext): Promise<AssertionOutcome[]> {
  const outcomes: AssertionOutcome[] = [];
  for (const assertion of assertions) {
    // Ctrl+C or SIGTERM: the scenario is canceled, so its remaining checks would tell nothing.
    if (context.signal.aborted) break;
    const base = { type: assertion.type, line: assertion.line, column: assertion.column, message: assertion.message, passThreshold: assertion.passThreshold };
    const skip = unmet(assertion.when, scope);
    if (skip !== undefined) {
      outcomes.push({ ...base, status: 'skipped', expected: 'its when: condition', actual: skip });
      continue;
    }
    try {
      const result = await assertion.run(scope, context);
      outcomes.push({ ...base, status: result.skipped ? 'skipped' : result.passed ? 'passed' : 'failed', expected: result.expected, actual: result.actual });
    } catch (error) {
      outcomes.push({
        ...base,
        status: 'failed',
        expected: 'the check to run',
        actual: `it failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return outcomes;
}

/** An outcome that fails the run it belongs to (one with its own pass_threshold is judged across runs instead). */
export function failsRun(outcome: AssertionOutcome): boolean {
  return outcome.status === 'failed' && outcome.passThreshold === undefined;
}
