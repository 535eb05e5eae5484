import { defineTool, type KernelTool } from '../../kernel/tool.js';
import { questionnaireSpecSchema } from './field-spec.js';
import { runDeferrableQuestionnaire } from './deferrable-questionnaire.js';

export const ASK_USER = 'ask_user';

export const DEFAULT_ASK_USER_DESCRIPTION =
  'Ask the person a few structured questions now and continue this turn with their answers. ' +
  'Each field becomes one question (text, number, integer, boolean, choice with options, or a comma-separated list); ' +
  'give a default when there is a sensible one, since "-" takes it. ' +
  'The result is JSON: {"status":"answered","answers":{...}} or {"status":"no-answer","reason":"away"|"refused"|"declined"}. ' +
  'no-answer means nobody answered: never invent an answer; go on with a stated assumption or say what you still need.';

/**
 * Calls from one augment instance run one after the other, so two ask_user calls of the same
 * batch never interleave their questions on the person's screen.
 */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
}

/**
 * ask_user: the turn waits while the person answers, then goes on with a typed result. Where the
 * answers come with a later run, the call is left open and run again by that run.
 */
export function createAskUserTool(description: string): KernelTool {
  const queue = oneAtATime();
  return defineTool({
    name: ASK_USER,
    description,
    inputSchema: questionnaireSpecSchema,
    async execute(spec, ctx) {
      const questionnaireId = `q_${ctx.toolCallId}`;
      const result = await queue(() =>
        runDeferrableQuestionnaire(spec, ctx.person, { signal: ctx.signal, emit: ctx.emit, id: questionnaireId, toolCallId: ctx.toolCallId }),
      );
      // Held open for a later run (serve's interrupts): that run calls this tool again with the answers.
      if (result.status === 'pending') return { content: '', deferred: true };
      return { content: JSON.stringify(result), record: { questionnaireId, ...result } };
    },
  });
}
