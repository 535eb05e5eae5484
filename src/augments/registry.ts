import type { AugmentFactory } from './types.js';
import { turnControlAugment } from './turn-control/augment.js';

/** The augments this version implements, by `type`. Folders may list others: those are warned about and skipped. */
export const BUILTIN_AUGMENTS: readonly AugmentFactory[] = [turnControlAugment];

export function findAugmentFactory(type: string): AugmentFactory | undefined {
  return BUILTIN_AUGMENTS.find((factory) => factory.type === type);
}
