/** The longest user message a host takes by default (serve and --print alike), in characters. */
export const DEFAULT_MAX_MESSAGE_CHARS = 32_000;
