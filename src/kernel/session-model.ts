import type { LoadedAgent } from '../agent/types.js';
import { ModelSpecError, describeModel, resolveModelSpec, type ModelOverrides, type ModelSpec } from '../model/model-spec.js';
import type { SessionEntry } from '../session/entries.js';

/**
 * The session's record of a model chosen in it (`/model`): the last one is the session's model
 * from then on, so a resumed session goes on with it.
 */
export const MODEL_RECORD = 'model';

/** The `provider:model` the session last switched to, if it ever did. */
export function storedModel(entries: readonly SessionEntry[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry.kind === 'record' && entry.name === MODEL_RECORD && typeof entry.data.model === 'string') return entry.data.model;
  }
  return undefined;
}

export type ModelChoice = { ok: true; spec: ModelSpec } | { ok: false; why: string };

/**
 * `provider:model` read as `--model` reads it, with the host's other flags (--base-url, --timeout)
 * still applied: one sentence when it cannot be used.
 */
export function chooseModel(agent: LoadedAgent, overrides: ModelOverrides, ref: string): ModelChoice {
  try {
    return { ok: true, spec: resolveModelSpec(agent, { ...overrides, model: ref.trim() }) };
  } catch (error) {
    if (error instanceof ModelSpecError) return { ok: false, why: error.message.replace(/^--model /, '') };
    throw error;
  }
}

/**
 * The model a conversation opens with: the session's own choice, when the host lets it stand
 * (it passes its flags and none of them names a model), else the host's.
 */
export function openingModel(
  agent: LoadedAgent,
  hostSpec: ModelSpec,
  overrides: ModelOverrides | undefined,
  entries: readonly SessionEntry[],
  warn: (message: string) => void,
): ModelSpec {
  const stored = overrides !== undefined && overrides.model === undefined ? storedModel(entries) : undefined;
  if (stored === undefined || stored === describeModel(hostSpec)) return hostSpec;
  const chosen = chooseModel(agent, overrides ?? {}, stored);
  if (chosen.ok) return chosen.spec;
  warn(`this session switched to ${stored}, which cannot be used now (${chosen.why}); it goes on with ${describeModel(hostSpec)}`);
  return hostSpec;
}
