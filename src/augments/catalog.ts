import type { AugmentCatalog } from '../agent/types.js';
import type { AugmentFactory } from '../kernel/augment.js';

// The built-in augments for the commands that run an agent (run, serve, test): each augment's
// module is imported only when a folder lists its type, so a turn of an agent without a workflow
// or MCP servers loads none of their code or schemas (6–10 ms of `run --print`'s start-up when
// every augment was imported; docs/performance.md). `registry.ts` keeps the whole list for the
// commands that describe every augment (validate, admin, create, mcp list).

const LOADERS: Readonly<Record<string, () => Promise<AugmentFactory>>> = {
  turnControl: () => import('./turn-control/augment.js').then((module) => module.turnControlAugment),
  workflow: () => import('./workflow/augment.js').then((module) => module.workflowAugment),
  userAsk: () => import('./user-ask/augment.js').then((module) => module.userAskAugment),
  goal: () => import('./goal/augment.js').then((module) => module.goalAugment),
  board: () => import('./board/augment.js').then((module) => module.boardAugment),
  questions: () => import('./questions/augment.js').then((module) => module.questionsAugment),
  mcp: () => import('./mcp/augment.js').then((module) => module.mcpAugment),
  a2a: () => import('./a2a/augment.js').then((module) => module.a2aAugment),
};

/** Each built-in type with its skill, in the registry's order (test/augments/catalog.test.ts holds the two equal). */
export const BUILTIN_AUGMENT_NAMES: readonly { type: string; skill: string }[] = [
  { type: 'turnControl', skill: 'turnControl' },
  { type: 'workflow', skill: 'workflow' },
  { type: 'userAsk', skill: 'userAsk' },
  { type: 'goal', skill: 'goal' },
  { type: 'board', skill: 'board' },
  { type: 'questions', skill: 'questions' },
  { type: 'mcp', skill: 'mcp' },
  { type: 'a2a', skill: 'a2a' },
];

/**
 * The built-in factories of these types (unknown ones are left out). Each module is imported once
 * however often this is asked: Node's module map keeps it, so no cache of our own is needed.
 */
export function loadBuiltinAugments(types: readonly string[]): Promise<AugmentFactory[]> {
  const wanted = BUILTIN_AUGMENT_NAMES.filter((entry) => types.includes(entry.type));
  return Promise.all(wanted.map((entry) => LOADERS[entry.type]()));
}

export const BUILTIN_AUGMENT_CATALOG: AugmentCatalog = { known: BUILTIN_AUGMENT_NAMES, load: loadBuiltinAugments };
