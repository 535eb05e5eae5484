import type { PackFile } from './pack-schema.js';

/**
 * The prompt a pack without a workflow runs, as PromptKit's SDK opens a pack with a prompt name:
 * `config.prompt` when set, else the pack's only prompt, else its first (validate says which).
 */
export function promptSetTask(pack: PackFile, chosen: string | undefined): { task: string; note?: string } | { error: string } {
  const tasks = Object.keys(pack.prompts);
  if (chosen !== undefined) {
    return tasks.includes(chosen) ? { task: chosen } : { error: `config.prompt "${chosen}" is not a prompt of this pack (${tasks.join(', ') || 'none'})` };
  }
  const [first] = tasks;
  if (first === undefined) return { error: 'the pack has no prompts and no workflow; add a prompt under prompts' };
  if (tasks.length === 1) return { task: first };
  return { task: first, note: `the pack has no workflow and ${tasks.length} prompts; auggy runs "${first}" (set config.prompt to choose)` };
}
