import type { AugmentFactory } from '../kernel/augment.js';
import { turnControlAugment } from './turn-control/augment.js';
import { workflowAugment } from './workflow/augment.js';
import { userAskAugment } from './user-ask/augment.js';
import { goalAugment } from './goal/augment.js';
import { boardAugment } from './board/augment.js';
import { questionsAugment } from './questions/augment.js';
import { mcpAugment } from './mcp/augment.js';
import { a2aAugment } from './a2a/augment.js';

/** The augments this version implements, by `type`. Folders may list others: those are warned about and skipped. */
export const BUILTIN_AUGMENTS: readonly AugmentFactory[] = [
  turnControlAugment,
  workflowAugment,
  userAskAugment,
  goalAugment,
  boardAugment,
  questionsAugment,
  mcpAugment,
  a2aAugment,
];

export function findAugmentFactory(type: string): AugmentFactory | undefined {
  return BUILTIN_AUGMENTS.find((factory) => factory.type === type);
}
