import { z } from 'zod';
import { assertionType } from './types.js';
import { shown } from './describe.js';

const params = z
  .looseObject({ validator_type: z.string().optional(), validator: z.string().optional(), should_trigger: z.boolean().optional() })
  .refine(
    (given) => Boolean(given.validator_type || given.validator),
    "needs a non-empty 'validator_type' (or 'validator'): the type the pack's validator declares",
  );

/**
 * guardrail_triggered, as PromptKit's handler: the validator (named as the pack declares its
 * type) held the reply back, or with `should_trigger: false` did not; a validator that did not
 * trigger counts as not triggered, and one the pack declares but auggy does not run is skipped.
 * The triggers are those of the turn's last reply, or of the last turn's for `conversation_assertions`.
 */
export const guardrailTriggered = assertionType({
  name: 'guardrail_triggered',
  params,
  check(given, scope) {
    const validator = given.validator_type || given.validator || '';
    const shouldTrigger = given.should_trigger ?? true;
    if (scope.workflow?.validatorsNotRun?.includes(validator)) {
      return {
        passed: false,
        skipped: true,
        expected: `PromptKit's guardrail_triggered for ${shown(validator)}`,
        actual: `skipped: auggy does not run validator ${validator} (auggy validate says why)`,
      };
    }
    const trigger = (scope.guardrails ?? []).findLast((record) => record.validator === validator);
    const expected = shouldTrigger ? `validator ${shown(validator)} to trigger` : `validator ${shown(validator)} not to trigger`;
    const others = (scope.guardrails ?? []).filter((record) => record.validator !== validator).map((record) => record.validator);
    const actual = trigger
      ? `it triggered (${trigger.action}: ${trigger.explanation})`
      : `it did not trigger${others.length > 0 ? ` (${listOf(others)} did)` : ''}`;
    return { passed: (trigger !== undefined) === shouldTrigger, expected, actual };
  },
});

function listOf(names: readonly string[]): string {
  return [...new Set(names)].join(', ');
}
