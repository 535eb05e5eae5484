import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  GUARDRAIL_CHECKS,
  byteLength,
  canonicalType,
  checkOf,
  intParam,
  normalizedParams,
  patternProblem,
  MAX_LENGTH_KEYS,
  MIN_LENGTH_KEYS,
  type Params,
} from './guardrail-checks.js';

/**
 * A prompt's `validators`, run as PromptKit's guardrail hooks run them (runtime/hooks/guardrails):
 * after each model call, in the order declared, the first whose check scores under 1 enforces on
 * the reply and the rest do not run. A length guardrail cuts the reply to its maximum; any other
 * replaces it with the validator's `message` (else PromptKit's default). There is no watch-only
 * mode: `fail_on_violation` is ignored, as PromptKit ignores it.
 */

/** PromptKit's text when a guardrail blocks a reply and the validator gives no message (prompt.DefaultBlockedMessage). */
export const DEFAULT_BLOCKED_MESSAGE = "Sorry, we can't provide this response as it would violate our content policy.";

export interface Guardrail {
  /** The type as the pack declares it (`banned_words`): what guardrail_triggered names. */
  type: string;
  params: Params;
  /** The reply shown instead of a blocked one. */
  message?: string;
}

/** What validate says about one validator: where it is (its index) and why it does not run as written. */
export interface GuardrailProblem {
  index: number;
  message: string;
  /** Set when the validator does not run at all: its declared type. */
  notRun?: string;
}

/** A guardrail that triggered: what it found, what it did, and the reply as it now stands. */
export interface GuardrailTrigger {
  validator: string;
  explanation: string;
  action: 'truncated' | 'replaced';
  text: string;
}

/** PromptKit's types that score with a judge model or an outside service (safety, RAG, REST, A2A, classifiers). */
const NEEDS_MODEL = new Set([
  'llm_judge',
  'llm_judge_session',
  'llm_judge_conversation',
  'llm_judge_tool_calls',
  'faithfulness',
  'answer_relevancy',
  'contextual_precision',
  'contextual_recall',
  'contextual_relevancy',
  'hallucination',
  'bias',
  'toxicity',
  'role_violation',
  'text_toxicity',
  'text_sentiment',
  'audio_emotion',
  'image_moderation',
  'cosine_similarity',
  'outcome_equivalent',
  'directional',
  'rest_eval',
  'rest_eval_session',
  'a2a_eval',
  'a2a_eval_session',
  'tool_exec',
]);

const RUN_HERE = Object.keys(GUARDRAIL_CHECKS).join(', ');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a declared validator is not run as written, or undefined when it runs as PromptKit runs it. */
function notRun(type: string, params: Params): string | undefined {
  if (NEEDS_MODEL.has(type)) return `validator ${type} is not run: it needs a judge model or an outside service, which auggy's guardrails do not call`;
  if (!checkOf(type)) return `validator ${type} is not run: auggy runs ${RUN_HERE} (and their PromptKit aliases) as guardrails`;
  const normalized = normalizedParams(type, params);
  const canonical = canonicalType(type);
  // PromptKit's factory refuses these params and skips the validator; so does auggy.
  if (canonical === 'max_length' && !MAX_LENGTH_KEYS.some((key) => intParam(normalized, key) > 0))
    return `validator ${type} is skipped, as PromptKit skips it: give it max_characters, a positive number`;
  if (canonical === 'min_length' && !MIN_LENGTH_KEYS.some((key) => intParam(normalized, key) > 0))
    return `validator ${type} is skipped, as PromptKit skips it: give it min_characters, a positive number`;
  if (canonical === 'regex' && patternProblem(normalized.pattern) !== undefined)
    return `validator ${type} is not run: its pattern does not compile here (${patternProblem(normalized.pattern)}); fix the pattern`;
  if (canonical === 'json_valid' && (normalized.allow_wrapped === true || normalized.extract_json === true))
    return `validator ${type} is not run: auggy does not take JSON out of a wrapped reply (allow_wrapped, extract_json); leave those out to check the whole reply`;
  return undefined;
}

/** A prompt's validators: those that run, and a line for each that does not or that never triggers. */
export function promptGuardrails(validators: unknown): { guardrails: Guardrail[]; problems: GuardrailProblem[] } {
  const guardrails: Guardrail[] = [];
  const problems: GuardrailProblem[] = [];
  if (!Array.isArray(validators)) return { guardrails, problems };
  validators.forEach((raw, index) => {
    if (!isRecord(raw) || typeof raw.type !== 'string' || raw.type === '') {
      problems.push({ index, message: 'a validator needs a type, like { type: banned_words, params: { words: [...] } }' });
      return;
    }
    // An explicit opt-out, skipped without a word, as PromptKit skips it.
    if (raw.enabled === false) return;
    const type = raw.type;
    const params: Params = isRecord(raw.params) ? raw.params : {};
    const why = notRun(type, params);
    if (why) {
      problems.push({ index, message: why, notRun: type });
      return;
    }
    const direction = typeof params.direction === 'string' ? params.direction : 'output';
    if (direction === 'input') {
      problems.push({
        index,
        message: `validator ${type} checks the person's message (direction: input), and auggy runs guardrails on replies only, so it is not run`,
        notRun: type,
      });
      return;
    }
    if (direction === 'both')
      problems.push({ index, message: `validator ${type} runs on replies only: auggy does not check the person's message (direction: both)` });
    if (type === 'pii_leakage')
      problems.push({
        index,
        message: 'validator pii_leakage runs its pattern check only (email addresses, SSNs, card numbers), as PromptKit runs it without a judge model',
      });
    if (params.case_sensitive === true)
      problems.push({ index, message: `validator ${type} ignores case_sensitive: true: PromptKit's checks always ignore case, and auggy's do the same` });
    if (canonicalType(type) === 'sentence_count')
      problems.push({
        index,
        message: `validator ${type} never holds a reply back: PromptKit's sentence count scores every reply as passing, and auggy does the same`,
      });
    const message =
      typeof raw.message === 'string' && raw.message !== ''
        ? raw.message
        : typeof params.message === 'string' && params.message !== ''
          ? params.message
          : undefined;
    guardrails.push({ type, params, ...(message !== undefined ? { message } : {}) });
  });
  return { guardrails, problems };
}

/** The adapter's extractMaxLen: a length guardrail's maximum, 0 for the others. */
function maxLengthOf(params: Params): number {
  for (const key of ['max_characters', 'max', 'max_chars']) {
    if (typeof params[key] === 'number') return Math.trunc(params[key] as number);
  }
  return 0;
}

/** The first `max` bytes of `text`, as Go slices a string, without a character cut in half. */
function cutToBytes(text: string, max: number): string {
  const cut = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8');
  return cut.endsWith('\uFFFD') && !text.startsWith(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Runs the guardrails on a reply, in order; the first that triggers enforces and the rest do not
 * run. `earlier` is the text of the conversation's assistant messages before this reply (checks
 * such as banned words read them all, as PromptKit's do).
 */
export function runGuardrails(guardrails: readonly Guardrail[], reply: string, earlier: readonly string[]): GuardrailTrigger | undefined {
  const input = { output: reply, assistantTexts: [...earlier, reply] };
  for (const guardrail of guardrails) {
    const check = checkOf(guardrail.type);
    if (!check) continue;
    const params = normalizedParams(guardrail.type, guardrail.params);
    const outcome = check(input, params);
    if (outcome.score >= 1) continue;
    const max = maxLengthOf(params);
    if (max > 0 && byteLength(reply) > max) {
      return { validator: guardrail.type, explanation: outcome.explanation, action: 'truncated', text: cutToBytes(reply, max) };
    }
    return { validator: guardrail.type, explanation: outcome.explanation, action: 'replaced', text: guardrail.message ?? DEFAULT_BLOCKED_MESSAGE };
  }
  return undefined;
}

/** The text of every assistant message of a transcript, in order. */
export function assistantTexts(transcript: readonly ModelMessage[]): string[] {
  return transcript.flatMap((message) => {
    if (message.role !== 'assistant') return [];
    if (typeof message.content === 'string') return [message.content];
    return [message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')];
  });
}

/** The one line the person sees: which guardrail, what it found, what stands instead. */
export function guardrailLine(trigger: GuardrailTrigger): string {
  const instead = trigger.action === 'truncated' ? 'the rest was held back' : "the pack's message was shown instead";
  return `guardrail ${trigger.validator} held back the reply: ${trigger.explanation}; ${instead}`;
}

/** The declared types of the validators that do not run at all, across the prompts given, sorted. */
export function validatorsNotRun(prompts: readonly Record<string, unknown>[]): string[] {
  const types = prompts.flatMap((prompt) => promptGuardrails(prompt.validators).problems.flatMap((problem) => (problem.notRun ? [problem.notRun] : [])));
  return [...new Set(types)].sort();
}
