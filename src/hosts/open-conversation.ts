import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../cli/exit-codes.js';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic, type LoadedAgent } from '../agent/types.js';
import { Conversation } from '../kernel/conversation.js';
import { ModelSpecError, resolveModelSpec, type ModelOverrides, type ModelSpec } from '../model/model-spec.js';
import { SessionError, openSession } from '../session/session.js';

export interface AgentTarget {
  agent: LoadedAgent;
  modelSpec: ModelSpec;
}

/** Loads the folder and settles the model; any problem is a UsageError naming the file and fix. */
export async function loadRunnableAgent(dir: string, overrides: ModelOverrides, warn: (message: string) => void): Promise<AgentTarget> {
  const agentDir = resolve(dir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder, or create one with: auggy create <name>`);
  }
  const loaded = await loadAgent(agentDir);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.agent || errors.length > 0) {
    const shown = errors.slice(0, 5).map(formatDiagnostic).join('\n  ');
    throw new UsageError(`the agent folder has errors (run auggy validate for all of them):\n  ${shown}`);
  }
  // Warnings about unset keys are the turn's business (it fails with the reason); the rest are
  // shown, without the word "warning" the host already puts before them.
  loaded.diagnostics
    .filter((d) => d.severity === 'warning' && !/not set/.test(d.message))
    .forEach((d) => warn(formatDiagnostic(d).replace(/ warning(?= |$)/, '')));
  try {
    return { agent: loaded.agent, modelSpec: resolveModelSpec(loaded.agent, overrides) };
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
}

export interface SessionChoice {
  sessionId?: string;
  continueLatest?: boolean;
}

export async function openConversation(target: AgentTarget, choice: SessionChoice, warn: (message: string) => void): Promise<Conversation> {
  try {
    const session = openSession({
      agentDir: target.agent.dir,
      agentName: target.agent.yaml.name,
      agentId: target.agent.yaml.id,
      sessionId: choice.sessionId,
      continueLatest: choice.continueLatest,
    });
    return await Conversation.open({ agent: target.agent, modelSpec: target.modelSpec, session, warn });
  } catch (error) {
    if (error instanceof SessionError) throw new UsageError(error.message);
    throw error;
  }
}
