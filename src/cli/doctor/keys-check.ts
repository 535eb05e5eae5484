import type { LoadedAgent } from '../../agent/types.js';
import { describeModel, type ModelSpec } from '../../model/model-spec.js';
import type { CheckResult } from './check-result.js';

/** Where the key the model is called with came from, never the key itself. */
function keySource(agent: LoadedAgent, variable: string | undefined, env: NodeJS.ProcessEnv): string {
  if (env.AUGGY_API_KEY) return 'AUGGY_API_KEY is set in the environment';
  if (agent.env.AUGGY_API_KEY) return "AUGGY_API_KEY is set in the agent's .env";
  if (variable && env[variable]) return `${variable} is set in the environment`;
  return `${variable ?? 'the key'} is set in the agent's .env`;
}

/**
 * The provider's key: present (and where from), not needed, or missing. `keyProblem` is the
 * model settings' own sentence for a missing key, when resolving them stopped there.
 */
export function keysCheck(agent: LoadedAgent, spec: ModelSpec | undefined, keyProblem: string | undefined, env: NodeJS.ProcessEnv = process.env): CheckResult {
  if (keyProblem) return { name: 'keys', status: 'fail', message: keyProblem };
  if (!spec) return { name: 'keys', status: 'skip', message: 'not checked: the model settings are wrong (see model)' };
  if (spec.apiKey) return { name: 'keys', status: 'ok', message: `${keySource(agent, spec.apiKeyVariable, env)} (for ${describeModel(spec)})` };
  const needs = spec.apiKeyVariable ? `${spec.apiKeyVariable} is not set; the server may not need one` : 'no key needed';
  return { name: 'keys', status: 'ok', message: `${needs} (${spec.provider} provider)` };
}
