import { createModel, type ModelBuild } from './create-model.js';
import type { ModelSpec } from './model-spec.js';

/** Builds the model for a spec, or hands back the one already built for the same spec. */
export type ModelBuilder = (spec: ModelSpec) => Promise<ModelBuild>;

/**
 * A host keeps one of these for as long as it runs: each distinct model is built once (a
 * scripted model's file read and parsed once), however many conversations, turns and evaluator
 * calls use it. Rebuilding it per call cost a YAML parse per evaluation under `serve`.
 */
export function createModelCache(build: ModelBuilder = createModel): ModelBuilder {
  const built = new Map<string, Promise<ModelBuild>>();
  return (spec) => {
    // The whole spec: any field (a timeout, a key) may change what is built.
    const key = JSON.stringify(spec);
    let model = built.get(key);
    if (!model) {
      model = build(spec);
      built.set(key, model);
    }
    return model;
  };
}
