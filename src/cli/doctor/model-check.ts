import type { LoadedAgent } from '../../agent/types.js';
import { makeComplete } from '../../kernel/complete.js';
import { createModel } from '../../model/create-model.js';
import { describeModel, type ModelSpec } from '../../model/model-spec.js';
import type { CheckResult } from './check-result.js';

const SYSTEM = 'You are being checked by auggy doctor: answer with one word.';
const PROMPT = 'Reply with the word OK.';
/** Enough for a word; a reasoning model that spends them all thinking has still answered. */
const MAX_OUTPUT_TOKENS = 16;
const QUOTED_CHARS = 40;

/** One tiny request to the agent's model, as a turn would make it: answered or not, and how fast. */
export async function modelCheck(agent: LoadedAgent, spec: ModelSpec): Promise<CheckResult> {
  const model = describeModel(spec);
  const complete = makeComplete(agent, spec, createModel);
  const started = performance.now();
  // Asked once: a doctor says at once that the server is down, where a turn would retry.
  const answer = await complete({ system: SYSTEM, prompt: PROMPT, maxOutputTokens: MAX_OUTPUT_TOKENS, maxRetries: 0 });
  const ms = Math.round(performance.now() - started);
  if (!answer.ok) return { name: 'model', status: 'fail', message: answer.error, details: { model, ms } };
  const reply = answer.text.replace(/\s+/g, ' ').trim();
  const quoted = reply === '' ? 'no text' : `"${reply.length > QUOTED_CHARS ? `${reply.slice(0, QUOTED_CHARS)}…` : reply}"`;
  return { name: 'model', status: 'ok', message: `${model} answered in ${ms} ms (${quoted})`, details: { model, ms, reply } };
}
