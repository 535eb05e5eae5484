import { PatternTimeoutError, compilePattern, patternMatches } from '../go-pattern.js';

/**
 * PromptKit's deterministic eval handlers, as its guardrail adapter runs them on a reply
 * (runtime/evals/handlers): each scores the reply from 0 to 1, and a score under 1 triggers the
 * guardrail. Lengths are counted in UTF-8 bytes and matching ignores case, as in Go.
 */

/** What a check reads: the reply, and every assistant message of the conversation ending with it. */
export interface GuardrailInput {
  output: string;
  assistantTexts: readonly string[];
}

export interface CheckOutcome {
  score: number;
  explanation: string;
}

export type Params = Readonly<Record<string, unknown>>;

type Check = (input: GuardrailInput, params: Params) => CheckOutcome;

/** PromptKit's other names for a handler (handlers/register.go). */
export const GUARDRAIL_ALIASES: Readonly<Record<string, string>> = {
  banned_words: 'content_excludes',
  content_not_includes: 'content_excludes',
  length: 'max_length',
  max_sentences: 'sentence_count',
  required_fields: 'field_presence',
  content_includes: 'contains',
  content_includes_any: 'contains_any',
  content_matches: 'regex',
  is_valid_json: 'json_valid',
  valid_json: 'json_valid',
};

/** Legacy param names rewritten to the canonical ones, per declared type (evals/normalize.go). */
const PARAM_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  content_excludes: { words: 'patterns' },
  banned_words: { words: 'patterns' },
  max_length: { max_characters: 'max', max_chars: 'max' },
  length: { max_characters: 'max', max_chars: 'max' },
  min_length: { min_characters: 'min', min_chars: 'min' },
  sentence_count: { max_sentences: 'max' },
  max_sentences: { max_sentences: 'max' },
  field_presence: { required_fields: 'fields' },
  required_fields: { required_fields: 'fields' },
};

/** Defaults an alias brings: banned_words matches whole words, content_excludes substrings. */
const PARAM_DEFAULTS: Readonly<Record<string, Params>> = {
  banned_words: { match_mode: 'word_boundary' },
};

/** ApplyDefaults then NormalizeParams, as the adapter does before every check. */
export function normalizedParams(type: string, params: Params): Params {
  const withDefaults = { ...(PARAM_DEFAULTS[type] ?? {}), ...params };
  const aliases = PARAM_ALIASES[type];
  if (!aliases) return withDefaults;
  return Object.fromEntries(
    Object.entries(withDefaults).map(([key, value]) => {
      const canonical = aliases[key];
      return canonical !== undefined && !(canonical in withDefaults) ? [canonical, value] : [key, value];
    }),
  );
}

/** Go's int of a YAML number: integers and truncated floats; anything else is `fallback`. */
export function intParam(params: Params, key: string, fallback = 0): number {
  const value = params[key];
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
}

function stringsParam(params: Params, key: string): string[] {
  const value = params[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const includesFolded = (text: string, pattern: string) => text.toLowerCase().includes(pattern.toLowerCase());

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first of `keys` that holds a non-zero int, as the length handlers look them up. */
function firstInt(params: Params, keys: readonly string[]): number {
  for (const key of keys) {
    const value = intParam(params, key);
    if (value !== 0) return value;
  }
  return 0;
}

export const MAX_LENGTH_KEYS = ['max', 'max_characters', 'max_chars'] as const;
export const MIN_LENGTH_KEYS = ['min', 'min_characters', 'min_chars'] as const;

const contentExcludes: Check = ({ assistantTexts }, params) => {
  const patterns = stringsParam(params, 'patterns');
  if (patterns.length === 0) return { score: 1, explanation: 'no patterns to check' };
  // Go's \b is ASCII, as JavaScript's is without the u flag.
  const matches =
    params.match_mode === 'word_boundary' ? (text: string, pattern: string) => new RegExp(`\\b${escapeRegExp(pattern)}\\b`, 'i').test(text) : includesFolded;
  const found = assistantTexts.flatMap((text) => patterns.filter((pattern) => matches(text, pattern)).map((pattern) => `"${pattern}"`));
  return found.length > 0 ? { score: 0, explanation: `it contains ${[...new Set(found)].join(', ')}` } : { score: 1, explanation: 'no forbidden content' };
};

const maxLength: Check = ({ output }, params) => {
  const max = firstInt(params, MAX_LENGTH_KEYS);
  if (max === 0) return { score: 0, explanation: "missing or zero 'max'/'max_characters' param" };
  const length = byteLength(output);
  let score = length > 0 ? Math.min(1, max / length) : 1;
  let explanation = `it is ${length} characters long, over the ${max} allowed`;
  const maxTokens = intParam(params, 'max_tokens');
  const tokens = Math.trunc(length / 4);
  if (maxTokens > 0 && tokens > maxTokens) {
    score = Math.min(score, maxTokens / tokens);
    if (length <= max) explanation = `it is about ${tokens} tokens long, over the ${maxTokens} allowed`;
  }
  return { score, explanation };
};

const minLength: Check = ({ output }, params) => {
  const min = firstInt(params, MIN_LENGTH_KEYS);
  const length = byteLength(output);
  return { score: min > 0 ? Math.min(1, length / min) : 1, explanation: `it is ${length} characters long, under the ${min} required` };
};

/** PromptKit's sentence_count only counts: its score is always 1, so as a guardrail it never triggers. */
const sentenceCount: Check = () => ({ score: 1, explanation: 'sentences counted' });

const fieldPresence: Check = ({ output }, params) => {
  const fields = stringsParam(params, 'fields');
  if (fields.length === 0) return { score: 1, explanation: 'no fields to check' };
  const missing = fields.filter((field) => !includesFolded(output, field));
  return { score: (fields.length - missing.length) / fields.length, explanation: `it lacks ${missing.map((field) => `"${field}"`).join(', ')}` };
};

const contains: Check = ({ output }, params) => {
  const patterns = stringsParam(params, 'patterns');
  if (patterns.length === 0) return { score: 0, explanation: 'no patterns specified' };
  const missing = patterns.filter((pattern) => !includesFolded(output, pattern));
  return { score: (patterns.length - missing.length) / patterns.length, explanation: `it lacks ${missing.map((pattern) => `"${pattern}"`).join(', ')}` };
};

const containsAny: Check = ({ assistantTexts }, params) => {
  const patterns = stringsParam(params, 'patterns');
  if (patterns.length === 0) return { score: 0, explanation: 'no patterns specified' };
  const matched = assistantTexts.some((text) => patterns.some((pattern) => includesFolded(text, pattern)));
  return { score: matched ? 1 : 0, explanation: `no reply contains any of ${patterns.map((pattern) => `"${pattern}"`).join(', ')}` };
};

const jsonValid: Check = ({ output }) => {
  try {
    JSON.parse(output);
    return { score: 1, explanation: 'valid JSON' };
  } catch {
    return { score: 0, explanation: 'it is not valid JSON' };
  }
};

/** Why a regex validator's pattern cannot compile, or undefined when it does. */
export function patternProblem(source: unknown): string | undefined {
  if (typeof source !== 'string' || source === '') return 'it needs a pattern';
  try {
    compilePattern(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * regex (content_matches): the reply matches `pattern` (Go's syntax), or with `expect_match:
 * false` does not. A pattern that does not compile is not run (validate names it); here it scores 0.
 */
const regex: Check = ({ output }, params) => {
  const source = params.pattern;
  const problem = patternProblem(source);
  if (problem !== undefined || typeof source !== 'string') return { score: 0, explanation: `its pattern cannot be used (${problem})` };
  const expectMatch = typeof params.expect_match === 'boolean' ? params.expect_match : true;
  let matched: boolean;
  try {
    matched = patternMatches(source, output);
  } catch (error) {
    // Go's engine never backtracks; a pattern that does here is taken as no match rather than a stuck turn.
    if (!(error instanceof PatternTimeoutError)) throw error;
    matched = false;
  }
  return { score: matched === expectMatch ? 1 : 0, explanation: matched ? `it matches /${source}/` : `it does not match /${source}/` };
};

/** pii_leakage's high-confidence patterns (safety_helpers.go), checked in this order. */
const PII_PATTERNS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an email address', pattern: /\b[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}\b/i },
  { name: 'a US social security number', pattern: /\b\d{3}-\d{2}-\d{4}\b/ },
  { name: 'a card number', pattern: /\b\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}\b/ },
];

/**
 * pii_leakage as PromptKit runs it without a judge model: the regex pre-pass alone. A miss
 * passes, since the judge that would look further is not wired (it never fails closed).
 */
const piiLeakage: Check = ({ output }) => {
  const hit = PII_PATTERNS.find(({ pattern }) => pattern.test(output));
  return hit ? { score: 0, explanation: `it contains ${hit.name}` } : { score: 1, explanation: 'no high-confidence PII pattern' };
};

/** The handlers auggy runs as guardrails, by canonical name: none needs a model or a service. */
export const GUARDRAIL_CHECKS: Readonly<Record<string, Check>> = {
  content_excludes: contentExcludes,
  max_length: maxLength,
  min_length: minLength,
  sentence_count: sentenceCount,
  field_presence: fieldPresence,
  contains,
  contains_any: containsAny,
  json_valid: jsonValid,
  regex,
  pii_leakage: piiLeakage,
};

/** The handler's own name for a declared type (`banned_words` is content_excludes). */
export function canonicalType(type: string): string {
  return GUARDRAIL_ALIASES[type] ?? type;
}

/** The handler a declared type runs, or undefined when auggy has none of that name. */
export function checkOf(type: string): Check | undefined {
  return GUARDRAIL_CHECKS[canonicalType(type)];
}
