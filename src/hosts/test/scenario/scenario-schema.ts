import { z } from 'zod';
import { regexSource, strictShape } from '../assertions/describe.js';

/** PromptKit's `when`, as its schema defines it. */
export const whenSchema = strictShape({
  tool_called: z.string().min(1).optional(),
  tool_called_pattern: regexSource.optional(),
  any_tool_called: z.boolean().optional(),
  min_tool_calls: z.number().int().min(0).optional(),
});

/** One entry of `assertions:` before its type's params are checked. */
export const assertionEntrySchema = strictShape({
  type: z.string().trim().min(1),
  params: z.record(z.string(), z.unknown()).nullish(),
  message: z.string().optional(),
  when: whenSchema.optional(),
  pass_threshold: z.number().min(0).max(1).optional(),
});
export type AssertionEntry = z.infer<typeof assertionEntrySchema>;

const answerSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);

/** `person: away`, or `person: {answers: {field: value}, approve: [tool]}`. */
export const personSchema = z.union(
  [
    z.literal('away'),
    strictShape({
      answers: z.record(z.string(), answerSchema).optional(),
      approve: z.array(z.string().min(1)).optional(),
    }),
  ],
  {
    error: (issue) => {
      // Within the mapping form, say what is wrong with it rather than repeat both forms.
      const inner = issue.code === 'invalid_union' ? issue.errors.flat().find((found) => found.code === 'unrecognized_keys') : undefined;
      return inner?.message ?? 'must be away, or a mapping with answers: {field: value} and/or approve: [tool]';
    },
  },
);

const mediaSchema = z
  .object({ file_path: z.string().optional(), url: z.string().optional(), data: z.string().optional(), mime_type: z.string().optional() })
  .loose();
const partSchema = z.object({ type: z.string(), text: z.string().optional(), media: mediaSchema.optional() });

export const turnSchema = z
  .object({
    role: z.string().default('user'),
    content: z.string().optional(),
    /** PromptKit's multimodal parts: text and images are sent, other media skip the turn. */
    parts: z.array(partSchema).optional(),
    event: z.string().trim().min(1).optional(),
    board: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
    person: personSchema.optional(),
    /** PromptKit's consent for client tools: grant is an approval, deny and timeout are not. */
    consent_overrides: z.record(z.string(), z.enum(['grant', 'deny', 'timeout'])).optional(),
    assertions: z.array(z.unknown()).nullish(),
    /** PromptKit's self-play keys: the persona that plays the person, and how many messages it writes. */
    persona: z.string().trim().min(1).optional(),
    turns: z.number().int().min(0).max(100).optional(),
    max_turns: z.number().int().min(0).max(100).optional(),
  })
  .loose()
  .superRefine((turn, ctx) => {
    // A self-play turn (role: <provider>-user with a persona) has no message of its own.
    const selfPlay = turn.role !== 'user' && turn.persona !== undefined;
    if (turn.role !== 'user' && !selfPlay) {
      ctx.addIssue({
        code: 'custom',
        path: ['role'],
        message: `"${turn.role}" turns are not run by auggy, which plays only the person's side; use role: user`,
      });
    }
    const hasMessage = turn.content !== undefined || (turn.parts?.length ?? 0) > 0;
    if (!hasMessage && !selfPlay && turn.event === undefined && turn.board === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: "needs content (the person's message), event or board" });
    }
  });
export type TurnEntry = z.infer<typeof turnSchema>;

export const scenarioDocumentSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.literal('Scenario'),
  metadata: z.object({ name: z.string().optional() }).loose().optional(),
  spec: z
    .object({
      id: z.string().optional(),
      description: z.string().optional(),
      turns: z.array(z.unknown()).min(1),
      conversation_assertions: z.array(z.unknown()).nullish(),
      trials: z.number().int().min(1).max(1000).optional(),
    })
    .loose(),
});
export type ScenarioDocument = z.infer<typeof scenarioDocumentSchema>;
