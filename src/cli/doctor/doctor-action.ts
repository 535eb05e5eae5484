import { EXIT } from '../../hosts/exit-codes.js';
import { ModelSpecError, resolveModelSpec, type ModelSpec } from '../../model/model-spec.js';
import { defaultAgentFolder } from '../agent-folder.js';
import type { ModelOptionValues } from '../model-options.js';
import { storeChoiceFrom, type StoreOptionValues } from '../store-option.js';
import { folderFindings, requireAgentFolder } from '../validate-action.js';
import { checkLine, doctorSummary, type CheckResult } from './check-result.js';
import { folderCheck } from './folder-check.js';
import { keysCheck } from './keys-check.js';
import { mcpChecks } from './mcp-check.js';
import { modelCheck } from './model-check.js';
import { nodeCheck } from './node-check.js';
import { storeCheck } from './store-check.js';
import { terminalCheck, terminalFacts } from './terminal-check.js';

export interface DoctorOptions extends ModelOptionValues, StoreOptionValues {
  json?: boolean;
}

function skipped(name: string, why: string): CheckResult {
  return { name, status: 'skip', message: `not checked: ${why}` };
}

/**
 * `auggy doctor`: whether this agent can run here, one line per check as each finishes (Node,
 * the folder, the key, one tiny model request, the MCP servers, the terminal, the session
 * store); exit 1 when one failed. Warnings (a terminal-less CI job, Node 20) do not fail it.
 */
export async function doctorCommand(dir: string, options: DoctorOptions, write: (text: string) => void): Promise<number> {
  const shown = defaultAgentFolder(dir);
  const agentDir = requireAgentFolder(shown, 'doctor');
  const storeUrl = storeChoiceFrom(options).url;
  const results: CheckResult[] = [];
  const add = (...checked: CheckResult[]) => {
    results.push(...checked);
    if (!options.json) write(checked.map((result) => `${checkLine(result)}\n`).join(''));
  };

  add(nodeCheck());
  const { agent, diagnostics } = await folderFindings(agentDir, false);
  add(folderCheck(shown === '.' ? agentDir : shown, diagnostics));
  if (agent) {
    let spec: ModelSpec | undefined;
    let specProblem: ModelSpecError | undefined;
    try {
      spec = resolveModelSpec(agent, { model: options.model, baseURL: options.baseUrl, timeoutSeconds: options.timeout });
    } catch (error) {
      if (!(error instanceof ModelSpecError)) throw error;
      specProblem = error;
    }
    add(keysCheck(agent, spec, specProblem?.setting === 'key' ? specProblem.message : undefined));
    if (spec) add(await modelCheck(agent, spec));
    else if (specProblem?.setting === 'model') add({ name: 'model', status: 'fail', message: specProblem.message });
    else add(skipped('model', 'no key to call it with (see keys)'));
    add(...(await mcpChecks(agent)));
  } else {
    const why = 'the folder does not load (see folder)';
    add(skipped('keys', why), skipped('model', why), skipped('mcp', why));
  }
  add(terminalCheck(await terminalFacts()));
  add(agent ? await storeCheck(agent, storeUrl) : skipped('store', 'the folder does not load (see folder)'));

  const ok = !results.some((result) => result.status === 'fail');
  if (options.json) write(`${JSON.stringify({ ok, dir: agentDir, checks: results }, null, 2)}\n`);
  else write(`${doctorSummary(results)}\n`);
  return ok ? EXIT.ok : EXIT.failed;
}
