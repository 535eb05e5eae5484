import type { Outcome } from './ask-state.js';

export interface Evaluation {
  outcome: Outcome;
  reason: string;
  /** False when the reply could not be read: the outcome is then in_progress and the reason says why. */
  readable: boolean;
}

/** Words models use for each outcome, normalized (lower case, spaces and dashes as `_`). */
const SYNONYMS: Record<Outcome, readonly string[]> = {
  achieved: [
    'achieved',
    'achieve',
    'done',
    'complete',
    'completed',
    'success',
    'successful',
    'succeeded',
    'satisfied',
    'fulfilled',
    'met',
    'resolved',
    'finished',
    'accomplished',
  ],
  blocked: [
    'blocked',
    'block',
    'stuck',
    'cannot_proceed',
    'impossible',
    'failed',
    'failure',
    'unable',
    'needs_input',
    'needs_user_input',
    'waiting_on_user',
    'input_required',
    'refused',
  ],
  in_progress: [
    'in_progress',
    'inprogress',
    'progress',
    'pending',
    'ongoing',
    'partial',
    'partially_done',
    'partially_achieved',
    'incomplete',
    'not_done',
    'not_achieved',
    'not_yet',
    'continuing',
    'working',
    'started',
    'underway',
    'under_way',
  ],
};

const OUTCOME_KEYS = ['outcome', 'status', 'result', 'verdict', 'state'];
const REASON_KEYS = ['reason', 'explanation', 'rationale', 'why', 'message', 'details'];

/** Longest reason kept: it is shown on one line and stored in user_ask.json. */
export const MAX_REASON_CHARS = 500;

function normalize(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

export function outcomeFromWord(word: string): Outcome | undefined {
  const key = normalize(word);
  return (Object.keys(SYNONYMS) as Outcome[]).find((outcome) => SYNONYMS[outcome].includes(key));
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The whole reply, else what lies between its first `{` and last `}` (prose or code fences around the JSON). */
function findObject(reply: string): Record<string, unknown> | undefined {
  const whole = parseObject(reply.trim());
  if (whole) return whole;
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  return start >= 0 && end > start ? parseObject(reply.slice(start, end + 1)) : undefined;
}

function field(object: Record<string, unknown>, keys: string[]): unknown {
  const entry = Object.entries(object).find(([key]) => keys.includes(key.trim().toLowerCase()));
  return entry?.[1];
}

function unreadable(reply: string, detail: string): Evaluation {
  const shown = oneLine(reply, 120);
  return {
    outcome: 'in_progress',
    reason: `the evaluator's reply was unreadable (${detail})${shown ? `: "${shown}"` : ''}`,
    readable: false,
  };
}

/**
 * Reads `{"outcome": ..., "reason": ...}` from an evaluator's reply, forgiving the usual slips:
 * prose or fences around the JSON, other key names, synonyms for the outcome. Anything it cannot
 * read is in_progress, never achieved: a garbled reply must not close the person's request.
 */
export function parseEvaluation(reply: string): Evaluation {
  let object = findObject(reply);
  if (!object) return unreadable(reply, 'no JSON object');
  // `{"evaluation": {"outcome": ...}}`: one wrapper level is unwrapped.
  if (field(object, OUTCOME_KEYS) === undefined) {
    const nested = Object.values(object).filter(
      (value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value),
    );
    if (nested.length === 1) object = nested[0];
  }
  const word = field(object, OUTCOME_KEYS);
  if (typeof word !== 'string') return unreadable(reply, 'no outcome');
  const outcome = outcomeFromWord(word);
  if (!outcome) return unreadable(reply, `unknown outcome "${oneLine(word, 40)}"`);
  const reason = field(object, REASON_KEYS);
  const text = typeof reason === 'string' ? oneLine(reason, MAX_REASON_CHARS) : '';
  return { outcome, reason: text === '' ? 'no reason given' : text, readable: true };
}
