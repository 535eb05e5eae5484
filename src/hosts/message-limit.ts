/** The longest user message a host takes by default (serve and --print alike), in characters. */
export const DEFAULT_MAX_MESSAGE_CHARS = 32_000;

/** The largest request body serve takes by default, history included, in MiB. */
export const DEFAULT_MAX_BODY_MB = 4;
