/**
 * The two events an ask state fires itself, from its own on_event: the person answered, or did
 * not. Their own file: checking a pack needs the names, not the asking.
 */
export const ANSWERED = 'Answered';
export const NO_ANSWER = 'NoAnswer';
export const ASK_EVENTS = [ANSWERED, NO_ANSWER] as const;
