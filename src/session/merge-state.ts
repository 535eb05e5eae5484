import { isDeepStrictEqual } from 'node:util';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Three-way merge of a state file: what this writer changed from the value it read (`base` to
 * `mine`) is applied onto what is saved now (`theirs`), so a change another writer made meanwhile
 * to a part this one left alone survives (the person's board line beside the agent's). Objects
 * merge key by key; anything else this writer changed is taken whole.
 */
export function mergeState(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (theirs === undefined || isDeepStrictEqual(base, theirs)) return mine;
  if (isDeepStrictEqual(base, mine)) return theirs;
  if (!isObject(mine) || !isObject(theirs)) return mine;
  const before = isObject(base) ? base : {};
  const merged: JsonObject = { ...theirs };
  for (const key of new Set([...Object.keys(before), ...Object.keys(mine)])) {
    if (isDeepStrictEqual(before[key], mine[key])) continue;
    if (!(key in mine)) delete merged[key];
    else merged[key] = mergeState(before[key], mine[key], theirs[key]);
  }
  return merged;
}
