import type { Part } from '@a2a-js/sdk';

/**
 * What both sides of A2A build: this augment, calling a remote agent, and hosts/a2a, serving one.
 * It lives here because hosts may import augments and not the other way round.
 */

/** Where a data part says which open question it asks or answers (auggy's own servers set it). */
export const INTERRUPT_ID_KEY = 'interruptId';

/** A text part, as the SDK's objects hold one. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A data part: a JSON value, with what it answers or describes in `metadata`. */
export function dataPart(value: unknown, metadata?: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, metadata, filename: '', mediaType: 'application/json' };
}
