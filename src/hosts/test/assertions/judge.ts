import { z } from 'zod';
import type { Scope } from './scope.js';
import { assertionType, type CheckContext, type CheckResult } from './types.js';
import { shown } from './describe.js';

export const JUDGE_SYSTEM_PROMPT =
  "You are the judge of an AI agent's reply in an automated test. Read the content and the criteria, " +
  'then answer with one JSON object and nothing else: {"passed": true or false, "score": a number from 0 to 1, "reasoning": "one sentence"}.';

const judgeParams = z
  .object({
    criteria: z.string().trim().min(1),
    rubric: z.string().optional(),
    /** `provider:model`; the agent's own model when absent. */
    model: z.string().min(1).optional(),
    system_prompt: z.string().min(1).optional(),
    min_score: z.unknown().optional(),
    max_score: z.unknown().optional(),
  })
  .refine((params) => params.min_score === undefined && params.max_score === undefined, {
    // PromptKit refuses thresholds on a judge too: they belong to the wrapper.
    message: 'a threshold (min_score, max_score) goes on a wrapper: type: assertion, params: {eval_type: llm_judge, eval_params: {...}, min_score: 0.7}',
  });
type JudgeParams = z.infer<typeof judgeParams>;

/** The judge's verdict; `passed` falls back to score ≥ 0.5 when the judge gave only a score. */
export function parseVerdict(text: string): { passed: boolean; score: number; reasoning: string } | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const parsed = z.object({ passed: z.boolean().optional(), score: z.number().min(0).max(1).optional(), reasoning: z.string().default('') }).safeParse(raw);
  if (!parsed.success || (parsed.data.passed === undefined && parsed.data.score === undefined)) return undefined;
  const score = parsed.data.score ?? (parsed.data.passed ? 1 : 0);
  return { passed: parsed.data.passed ?? score >= 0.5, score, reasoning: parsed.data.reasoning };
}

/** Asks the judge model whether `content` meets the criteria. */
export async function askJudge(
  params: Pick<JudgeParams, 'criteria' | 'rubric' | 'model' | 'system_prompt'>,
  content: string,
  context: CheckContext,
): Promise<CheckResult> {
  const expected = `a judge to find the reply meets ${shown(params.criteria)}`;
  const prompt = [`Content to evaluate:\n${content}`, `Criteria: ${params.criteria}`, ...(params.rubric ? [`Rubric: ${params.rubric}`] : [])].join('\n\n');
  const reply = await context.complete({ system: params.system_prompt ?? JUDGE_SYSTEM_PROMPT, prompt, model: params.model, signal: context.signal });
  if (!reply.ok) return { passed: false, expected, actual: `the judge could not be asked: ${reply.error}` };
  const verdict = parseVerdict(reply.text);
  if (!verdict) return { passed: false, expected, actual: `the judge did not answer with {"passed", "score", "reasoning"}: ${shown(reply.text)}` };
  return {
    passed: verdict.passed,
    score: verdict.score,
    expected,
    actual: `${verdict.passed ? 'passed' : 'failed'} (score ${verdict.score})${verdict.reasoning ? `: ${shown(verdict.reasoning)}` : ''}`,
  };
}

/** llm_judge: a tool-less model call judges the reply (the whole conversation in conversation_assertions). */
export const llmJudge = assertionType({
  name: 'llm_judge',
  params: judgeParams,
  check: (params, scope: Scope, context) => askJudge(params, scope.kind === 'turn' ? scope.text : scope.conversation, context),
});

/** llm_judge_session (PromptKit also `llm_judge_conversation`): the judge reads the whole conversation so far. */
export const llmJudgeSession = assertionType({
  name: 'llm_judge_session',
  aliases: ['llm_judge_conversation'],
  params: judgeParams,
  check: (params, scope: Scope, context) => askJudge(params, scope.conversation, context),
});
