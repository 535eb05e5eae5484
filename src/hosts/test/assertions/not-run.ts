import { z } from 'zod';
import { assertionType, type AssertionType } from './types.js';

/** PromptKit's LLM-judged types: they need a judge model, which auggy test does not take yet. */
const JUDGED = [
  'faithfulness',
  'hallucination',
  'answer_relevancy',
  'contextual_relevancy',
  'contextual_recall',
  'contextual_precision',
  'outcome_equivalent',
  'directional',
  'llm_judge_tool_calls',
];

/** PromptKit types whose inputs auggy does not observe (media, guardrails, costs, skills, sub-agents). */
const UNOBSERVED: Record<string, string> = {
  guardrail_triggered: 'auggy runs no PromptKit guardrails',
  cost_budget: 'auggy does not count the cost of a turn',
  latency_budget: 'auggy does not time a turn for assertions',
  tool_exec: 'auggy does not run PromptKit tool executors',
  tool_anti_pattern: 'auggy does not run tool anti-pattern checks',
  tool_efficiency: 'auggy does not run tool efficiency checks',
  skill_activated: 'auggy has no skill activation to observe',
  skill_not_activated: 'auggy has no skill activation to observe',
  agent_invoked: 'auggy runs no sub-agents',
  agent_response_contains: 'auggy runs no sub-agents',
  invariant_fields_preserved: 'auggy does not run this check',
  image_format: 'replies carry no images here',
  image_dimensions: 'replies carry no images here',
  image_moderation: 'replies carry no images here',
  audio_format: 'replies carry no audio here',
  audio_duration: 'replies carry no audio here',
  audio_emotion: 'replies carry no audio here',
  video_resolution: 'replies carry no video here',
  video_duration: 'replies carry no video here',
  tool_result_has_media: 'tool results reach auggy as text',
  tool_result_media_type: 'tool results reach auggy as text',
  composition_output: 'auggy does not run composition states',
  composition_step_output: 'auggy does not run composition states',
  composition_parallel_complete: 'auggy does not run composition states',
  composition_branch_taken: 'auggy does not run composition states',
};

function skippedType(name: string, why: string): AssertionType {
  return assertionType({
    name,
    params: z.unknown(),
    check: () => ({ passed: false, skipped: true, expected: `PromptKit's ${name}`, actual: `skipped: ${why}` }),
  });
}

/** Known PromptKit types auggy cannot run: they load, and every run reports them skipped, never passed. */
export const NOT_RUN_TYPES: readonly AssertionType[] = [
  ...JUDGED.map((name) => skippedType(name, 'an LLM-judged type; auggy test takes no judge model for it yet')),
  ...Object.entries(UNOBSERVED).map(([name, why]) => skippedType(name, why)),
];
