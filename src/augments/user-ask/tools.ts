import { z } from 'zod';
import { defineTool, type KernelTool } from '../../kernel/tool.js';
import type { UserAskStore } from './user-ask-store.js';

export const SET_USER_ASK = 'set_user_ask';
export const CLEAR_USER_ASK = 'clear_user_ask';

export const SET_USER_ASK_DESCRIPTION =
  "Record or replace the user's current request (the ask) that the host judges each of your turns against. " +
  'Call it when the user refines the request, changes direction, or answers your question, with the whole request as it now stands ' +
  '(for "api-west" after you asked which service: "Deploy api-west"). Not needed to repeat an unchanged ask.';

export const CLEAR_USER_ASK_DESCRIPTION =
  'Stop tracking the current request because the user abandoned it ("never mind", "forget it"). ' +
  'Do not call it when the request was achieved: the host notices that by itself.';

function buildSetUserAskSchema(maxAskChars: number) {
  return z.object({
    text: z
      .string()
      .trim()
      .min(1, 'text must not be empty')
      .max(maxAskChars, `text must be at most ${maxAskChars} characters: summarize the request`)
      .describe('The whole request as it now stands, self-contained, in the user’s terms.'),
  });
}

/**
 * One schema per limit, shared by every conversation (a server opens one per thread), so it is
 * built and converted for the wire once rather than per thread. Limits come from config: few.
 */
const setUserAskSchemas = new Map<number, ReturnType<typeof buildSetUserAskSchema>>();

export function setUserAskSchema(maxAskChars: number) {
  let schema = setUserAskSchemas.get(maxAskChars);
  if (!schema) {
    schema = buildSetUserAskSchema(maxAskChars);
    setUserAskSchemas.set(maxAskChars, schema);
  }
  return schema;
}

const clearUserAskSchema = z.object({});

/** set_user_ask and clear_user_ask, acting on the session's store. */
export function createUserAskTools(store: UserAskStore, maxAskChars: number): KernelTool[] {
  return [
    defineTool({
      name: SET_USER_ASK,
      description: SET_USER_ASK_DESCRIPTION,
      inputSchema: setUserAskSchema(maxAskChars),
      async execute({ text }) {
        const state = await store.set(text, 'agent');
        return { content: `Tracking the ask: ${state.text}` };
      },
    }),
    defineTool({
      name: CLEAR_USER_ASK,
      description: CLEAR_USER_ASK_DESCRIPTION,
      inputSchema: clearUserAskSchema,
      async execute() {
        const had = store.active !== undefined;
        await store.clear();
        return { content: had ? 'Stopped tracking the ask.' : 'No ask was being tracked; nothing changed.' };
      },
    }),
  ];
}
