/**
 * What the person can do about a conversation too long for its model, in the words of the host
 * they are in. Only the chat has `/compact` and `/clear`; naming them to someone in an editor, a
 * script or a web client would send them looking for commands that are not there.
 */

/** `a`, `a or b`, `a, b, or c`. */
function eitherOf(choices: readonly string[]): string {
  if (choices.length <= 1) return choices.join('');
  return `${choices.slice(0, -1).join(', ')}${choices.length > 2 ? ',' : ''} or ${choices.at(-1)}`;
}

/**
 * After a refusal for length that compacting could not meet: the engine setting, then the host's
 * own ways to make room (`remedies`), or a new session where the host has none.
 */
export function overflowAdvice(remedies: readonly string[]): string {
  return eitherOf(["raise engine.maxContextTokens if the model's window is larger", ...(remedies.length > 0 ? remedies : ['start a new session'])]);
}

/** After an automatic compaction that left the context over its threshold: the host's own ways to make room, if any. */
export function stallAdvice(remedies: readonly string[]): string {
  return remedies.length > 0 ? `; ${eitherOf(remedies)}` : '';
}
