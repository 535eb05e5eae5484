import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toolOutputText } from '../../session/tool-output.js';

/**
 * The rule for what no provider has counted yet: four characters to a token, the figure OpenAI
 * and Anthropic give for English text. It errs high for code and low for some languages, which
 * is why the provider's own count of the last call, when it reports one, is the meter's base.
 */
export const CHARS_PER_TOKEN = 4;

export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** What one image is counted as, in characters (four to a token). */
const IMAGE_CHARS = 4 * 1100;

const charsOfMessage = new WeakMap<ModelMessage, number>();

/** Characters a message puts in a request: its text, its tool calls' input, its tool results. */
export function messageChars(message: ModelMessage): number {
  const known = charsOfMessage.get(message);
  if (known !== undefined) return known;
  let chars = 0;
  if (typeof message.content === 'string') chars = message.content.length;
  else
    for (const part of message.content) {
      if (part.type === 'text') chars += part.text.length;
      // Providers price an image by its pixels, not its bytes: about a thousand tokens for a large one.
      else if (part.type === 'file' || part.type === 'image') chars += IMAGE_CHARS;
      else if (part.type === 'tool-call') chars += part.toolName.length + JSON.stringify(part.input ?? {}).length;
      else if (part.type === 'tool-result') chars += toolOutputText(part.output).text.length;
    }
  charsOfMessage.set(message, chars);
  return chars;
}

/** The context in use, and the window it must fit (engine.maxContextTokens), when the folder says. */
export interface ContextReading {
  used: number;
  limit?: number;
  /** Whether `used` is the provider's count (plus an estimate of what came after) or an estimate only. */
  measured: boolean;
}

/**
 * The context meter: after each model call, the prompt tokens the provider reported for it; what
 * the transcript gained since is estimated (CHARS_PER_TOKEN). Without a reported count (a provider
 * that sends none, a compaction since) the whole request is estimated.
 */
export class ContextMeter {
  private reported: { tokens: number; messages: number } | undefined;

  constructor(readonly limit: number | undefined) {}

  /** A call was made with the first `sentMessages` messages of the transcript and took `inputTokens`. */
  measured(inputTokens: number, sentMessages: number): void {
    this.reported = inputTokens > 0 ? { tokens: inputTokens, messages: sentMessages } : undefined;
  }

  /** The transcript changed under the last count (a compaction): estimate until the next call. */
  forget(): void {
    this.reported = undefined;
  }

  reading(system: string, messages: readonly ModelMessage[]): ContextReading {
    const limit = this.limit !== undefined ? { limit: this.limit } : {};
    const base = this.reported;
    if (base && base.messages <= messages.length) {
      let added = 0;
      for (let index = base.messages; index < messages.length; index++) added += messageChars(messages[index]);
      return { used: base.tokens + tokensForChars(added), ...limit, measured: true };
    }
    return { used: estimateRequest(system, messages), ...limit, measured: false };
  }
}

/** A whole request's tokens by the rule: the system prompt and every message. */
export function estimateRequest(system: string, messages: readonly ModelMessage[]): number {
  let chars = system.length;
  for (const message of messages) chars += messageChars(message);
  return tokensForChars(chars);
}
