import type { CommandOutput } from '../../kernel/augment.js';
import type { Conversation } from '../../kernel/conversation.js';
import { describeModel } from '../../model/model-spec.js';

/**
 * `/model`: the model in use, or `/model provider:model` to switch to another for the rest of the
 * session. A switch is said by the conversation on its stream (and kept in the session); a spec
 * that cannot be used is one sentence, and the model stays.
 */
export async function modelCommand(conversation: Conversation, args: string): Promise<CommandOutput> {
  const current = describeModel(conversation.modelSpec);
  if (args.trim() === '') return { lines: [`model ${current} · /model provider:model switches it for the rest of this session`] };
  try {
    const switched = await conversation.switchModel(args);
    if (switched.ok) return { lines: [] };
    return { lines: [`${switched.why}; the model stays ${current}`], isError: true };
  } catch (error) {
    // Another auggy holds the session (SessionBusyError): said as it is.
    return { lines: [`${error instanceof Error ? error.message : String(error)}; the model stays ${current}`], isError: true };
  }
}
