import { parse } from 'yaml';
import { z } from 'zod';
import { isPromptKitMock, promptKitMockSchema, type PromptKitMock } from './promptkit-mock.js';
import { readBoundedFile } from '../../agent/read-agent-file.js';

const scriptedToolCallSchema = z.object({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

const scriptedStepSchema = z.object({
  text: z.string().optional(),
  toolCalls: z.array(scriptedToolCallSchema).default([]),
});

const scriptedRuleSchema = z
  .object({
    /** Case-insensitive regular expression on the latest user message. */
    match: z.string().default('.*'),
    /** Optional case-insensitive regular expression on the system prompt (workflow state, evaluator). */
    system: z.string().optional(),
    /**
     * Optional case-insensitive regular expression on the latest tool result (as text): the rule
     * fits only after a tool round whose result matches, so a reply can follow what a tool said
     * (a questionnaire answered, or answered by nobody). Its `steps[0]` is the reply to that result.
     */
    result: z.string().optional(),
    /** `steps[n]` is the reply after n tool rounds since the user's message. */
    steps: z.array(scriptedStepSchema).min(1).optional(),
    /**
     * Instead of steps: one reply per call to this rule, taken in order and starting over after the
     * last, so a deterministic model can still answer differently on each run (`auggy test --repeat`).
     */
    replies: z.array(scriptedStepSchema).min(1).optional(),
  })
  .refine((rule) => (rule.steps === undefined) !== (rule.replies === undefined), {
    message: 'a rule needs either steps or replies (not both)',
  });

export const scriptSchema = z.object({
  /** Pause between streamed chunks, so hosts can be watched streaming. */
  chunkDelayMs: z.number().int().min(0).max(10_000).default(0),
  rules: z.array(scriptedRuleSchema).min(1),
});

export type Script = z.infer<typeof scriptSchema>;
export type ScriptedStep = z.infer<typeof scriptedStepSchema>;

export class ScriptError extends Error {}

/** A rules file, or PromptKit's mock config (no rules: its responses are played by scenario and turn). */
export type LoadedScript = Script & { promptKit?: PromptKitMock };

export function loadScript(path: string): LoadedScript {
  const read = readBoundedFile(path);
  if (!read.ok) throw new ScriptError(`the model script ${path} ${read.message}`);
  let raw: unknown;
  try {
    raw = parse(read.text);
  } catch (error) {
    throw new ScriptError(`cannot read the model script ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (isPromptKitMock(raw)) {
    const mock = promptKitMockSchema().safeParse(raw);
    if (!mock.success)
      throw new ScriptError(`the model script ${path} is not a valid PromptKit mock config: ${z.prettifyError(mock.error).replace(/\n/g, '; ')}`);
    return { chunkDelayMs: 0, rules: [], promptKit: mock.data };
  }
  const parsed = scriptSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ScriptError(`the model script ${path} is not valid: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  }
  for (const rule of parsed.data.rules) {
    for (const pattern of [rule.match, rule.system, rule.result]) {
      if (pattern === undefined) continue;
      try {
        new RegExp(pattern, 'i');
      } catch {
        throw new ScriptError(`the model script ${path} has an invalid pattern: ${pattern}`);
      }
    }
  }
  return parsed.data;
}

/**
 * Picks the reply: the first rule whose patterns fit, at the step for this many tool rounds, or
 * its next reply in turn. `replyCounts` holds how often each rule's replies were taken.
 */
export function pickStep(
  script: Script,
  userText: string,
  system: string,
  toolRounds: number,
  replyCounts: Map<number, number> = new Map(),
  /** The latest tool result since the user's message, as text; undefined before any tool round. */
  result?: string,
): ScriptedStep | undefined {
  const index = script.rules.findIndex(
    (candidate) =>
      new RegExp(candidate.match, 'i').test(userText) &&
      (candidate.system === undefined || new RegExp(candidate.system, 'i').test(system)) &&
      (candidate.result === undefined || (result !== undefined && new RegExp(candidate.result, 'i').test(result))),
  );
  const rule = script.rules[index];
  if (!rule) return undefined;
  if (rule.replies) {
    const taken = replyCounts.get(index) ?? 0;
    replyCounts.set(index, taken + 1);
    return rule.replies[taken % rule.replies.length];
  }
  return rule.steps?.[rule.result === undefined ? toolRounds : toolRounds - 1];
}

/**
 * `{{result.answers.environment}}` in a reply is that field of the latest tool result, read as
 * JSON (a list joined with commas); a field that is not there is left empty.
 */
export function fillResult(text: string, result: string | undefined): string {
  if (!text.includes('{{result')) return text;
  let parsed: unknown;
  try {
    parsed = result === undefined ? undefined : JSON.parse(result);
  } catch {
    parsed = undefined;
  }
  return text.replace(/\{\{result((?:\.[A-Za-z0-9_-]+)*)\}\}/g, (_all, path: string) => {
    let value: unknown = parsed;
    for (const key of path.split('.').filter(Boolean))
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) return '';
    return Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
