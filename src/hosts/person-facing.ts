/**
 * What the person is shown of a tool call. request_input's question is the reply itself, so
 * its call has no line of its own; its `reason` is for tracing (the session, `--output json`'s
 * toolCalls) and is never shown.
 */
const SHOWN_AS_REPLY = new Set(['request_input']);

/** Arguments kept out of every person-facing line, by tool. */
const HIDDEN_ARGS: Record<string, readonly string[]> = { request_input: ['reason'] };

/** Whether the call's outcome is already what the person reads as the reply. */
export function isShownAsReply(toolName: string): boolean {
  return SHOWN_AS_REPLY.has(toolName);
}

/** The call's arguments (JSON text) without those kept from the person; text still streaming is left out whole. */
export function personFacingArgs(toolName: string, args: string): string {
  const hidden = HIDDEN_ARGS[toolName];
  if (!hidden) return args;
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return args;
    return JSON.stringify(Object.fromEntries(Object.entries(parsed).filter(([key]) => !hidden.includes(key))));
  } catch {
    // Half-streamed arguments may hold the hidden text already: show none of them.
    return '';
  }
}
