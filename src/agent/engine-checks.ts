import { providerKeyVariable } from './provider-keys.js';
import { readAgentFile } from './read-agent-file.js';
import { locateField, type YamlSource } from './yaml-source.js';
import type { EngineConfig } from './schema.js';
import type { Diagnostic, Severity } from './types.js';

export interface EngineCheckInput {
  agentDir: string;
  engine: EngineConfig;
  agentYaml: YamlSource;
  /** The folder's .env and the process environment: a key in either counts as set. */
  dotEnv: Record<string, string>;
  processEnv: NodeJS.ProcessEnv;
}

/** What agent.yaml's schema cannot see: the key variable, the script file, the server address. */
export function checkEngine(input: EngineCheckInput): Diagnostic[] {
  const { engine, agentYaml } = input;
  const at = (severity: Severity, field: string, message: string): Diagnostic => {
    const position = locateField(agentYaml, field.split('.'));
    return { severity, file: agentYaml.file, line: position?.line, column: position?.column, field, message };
  };
  const diagnostics: Diagnostic[] = [];

  const keyVariable = providerKeyVariable(engine);
  const isSet = (name: string) => Boolean(input.processEnv[name] || input.dotEnv[name]);
  // AUGGY_API_KEY overrides every provider's key at run time, so it satisfies the check too.
  if (keyVariable && !isSet(keyVariable) && !isSet('AUGGY_API_KEY')) {
    const field = engine.apiKeyEnv ? 'engine.apiKeyEnv' : 'engine.provider';
    diagnostics.push({
      ...at(
        'warning',
        field,
        `${keyVariable} is not set in the environment or in .env; put ${keyVariable}=<your key> in .env (see .env.example) before auggy run`,
      ),
      code: 'key-not-set',
    });
  }

  if (engine.provider === 'scripted') {
    if (!engine.script) {
      diagnostics.push(at('error', 'engine', 'the scripted provider needs a rules file; add script: ./script.yaml under engine'));
    } else {
      const read = readAgentFile(input.agentDir, engine.script);
      if (!read.ok && read.problem === 'missing') {
        diagnostics.push(
          at('error', 'engine.script', `${engine.script} does not exist; create the rules file or fix the path (it is relative to the agent folder)`),
        );
      } else if (!read.ok) {
        diagnostics.push(at('error', 'engine.script', `${engine.script} ${read.message}`));
      }
    }
  }

  if (engine.baseURL && !/^https?:\/\/[^/]/i.test(engine.baseURL)) {
    diagnostics.push(at('error', 'engine.baseURL', `"${engine.baseURL}" is not an http(s) URL; write it like http://127.0.0.1:8000/v1`));
  }

  if (engine.provider === 'openai-compatible' && !engine.baseURL) {
    diagnostics.push(
      at(
        'warning',
        'engine',
        'openai-compatible has no baseURL, so every run needs --base-url or AUGGY_BASE_URL; add baseURL: http://127.0.0.1:8000/v1 under engine',
      ),
    );
  }
  return diagnostics;
}
