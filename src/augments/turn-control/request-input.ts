import { z } from 'zod';
import { defineTool, type KernelTool } from '../../kernel/tool.js';

export const REQUEST_INPUT_MAX_CHARS = 2000;

export const DEFAULT_REQUEST_INPUT_DESCRIPTION =
  'Stop this turn and ask the user one blocking question. Use it only when you cannot reasonably continue: ' +
  'required information is missing, or the request is genuinely ambiguous and no safe default exists. ' +
  'The prompt is shown to the user as your reply and the turn ends until they answer. ' +
  'Ask one specific, answerable question. Never use it as a closing pleasantry or to avoid a decision the user left to you.';

export const requestInputSchema = z.object({
  prompt: z
    .string()
    .min(1, 'prompt must not be empty')
    .max(REQUEST_INPUT_MAX_CHARS, `prompt must be at most ${REQUEST_INPUT_MAX_CHARS} characters`)
    .describe('The one question the user sees, specific and answerable.'),
  reason: z.string().optional().describe('Why you need to ask; kept for tracing, never shown to the user.'),
});

/** request_input: the prompt becomes the visible reply and the turn ends input-required. */
export function createRequestInputTool(description: string): KernelTool {
  return defineTool({
    name: 'request_input',
    description,
    inputSchema: requestInputSchema,
    execute({ prompt, reason }, ctx) {
      return {
        content: prompt,
        // The next user message (or an AG-UI resume whose payload is the answer) answers it.
        terminate: {
          status: 'input-required',
          message: prompt,
          interrupts: [
            {
              id: `int_${ctx.toolCallId}`,
              reason: 'input_required',
              message: prompt,
              toolCallId: ctx.toolCallId,
              responseSchema: { type: 'string', title: prompt },
            },
          ],
        },
        record: reason === undefined ? { prompt } : { prompt, reason },
      };
    },
  });
}
