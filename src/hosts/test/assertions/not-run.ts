import { z } from 'zod';
import { assertionType, type AssertionType } from './types.js';
import { askJudge } from './judge.js';

/** PromptKit's LLM-judged types and what the judge is asked of each; they run with --judge-model. */
const JUDGED: Record<string, string> = {
  faithfulness: 'The reply states only what the conversation and its tool results support.',
  hallucination: 'The reply invents no facts, names or figures that the conversation and its tool results do not give.',
  answer_relevancy: "The reply answers the user's latest message.",
  contextual_relevancy: 'The context the reply draws on is relevant to what the user asked.',
  contextual_recall: 'The reply uses the facts from the conversation that the question needs.',
  contextual_precision: 'The reply uses the relevant facts of the conversation and not the irrelevant ones.',
  outcome_equivalent: 'The reply reaches the outcome the parameters describe.',
  directional: 'The reply moves in the direction the parameters describe.',
  llm_judge_tool_calls: 'The tool calls made were the right ones, with the right arguments, for what the user asked.',
};

const thresholdOf = (params: unknown): number | undefined => {
  if (params === null || typeof params !== 'object') return undefined;
  const { threshold, min_score } = params as { threshold?: unknown; min_score?: unknown };
  const value = typeof threshold === 'number' ? threshold : min_score;
  return typeof value === 'number' ? value : undefined;
};

/** A judged type: skipped (never passed) without a judge model; with one, the judge's verdict and, when the params give one, its score against the threshold. */
function judgedType(name: string, criteria: string): AssertionType {
  return assertionType({
    name,
    params: z.unknown(),
    check: async (params, scope, context) => {
      if (context.judgeModel === undefined) {
        return {
          passed: false,
          skipped: true,
          expected: `PromptKit's ${name}`,
          actual: 'skipped: an LLM-judged type; give auggy test --judge-model provider:model to run it',
        };
      }
      const rubric = params === undefined ? undefined : `The check's parameters: ${JSON.stringify(params)}`;
      const content = [scope.conversation, scope.kind === 'turn' ? `The reply to judge:\n${scope.text}` : ''].filter(Boolean).join('\n\n');
      const verdict = await askJudge({ criteria, rubric, model: context.judgeModel }, content, context);
      const threshold = thresholdOf(params);
      if (threshold === undefined || verdict.score === undefined) return verdict;
      return { ...verdict, passed: verdict.score >= threshold, expected: `${verdict.expected}, scoring at least ${threshold}` };
    },
  });
}

/** PromptKit types whose inputs auggy does not observe (media, guardrails, costs, skills, sub-agents). */
const UNOBSERVED: Record<string, string> = {
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
  ...Object.entries(JUDGED).map(([name, criteria]) => judgedType(name, criteria)),
  ...Object.entries(UNOBSERVED).map(([name, why]) => skippedType(name, why)),
];
