import { z } from 'zod';
import type { Diagnostic } from '../../../agent/types.js';
import { schemaDiagnostics } from '../../../agent/schema-issues.js';
import { locateField, parseYamlSource } from '../../../agent/yaml-source.js';
import { readAgentFile, resolveInsideAgent } from '../../../agent/read-agent-file.js';
import { parseModelRef } from '../../../model/model-spec.js';

/** The file beside agent.yaml that says who plays each self-play role under `auggy test`. */
export const SELF_PLAY_FILE = 'self-play.yaml';

/**
 * Who plays a self-play role (a scenario turn's `role: gemini-user`), as a PromptKit Arena's
 * `self_play.roles` names a provider for it: a PromptKit mock config that scripts the person's
 * messages offline (`script`), or a model that plays the persona (`model`).
 */
export type SelfPlayRole = { id: string; script: string } | { id: string; model: string };

const roleSchema = z.union(
  [
    z.strictObject({ id: z.string().trim().min(1), script: z.string().trim().min(1) }),
    z.strictObject({ id: z.string().trim().min(1), model: z.string().trim().min(1) }),
  ],
  { error: 'a role is {id, script: ./mock-responses.yaml} or {id, model: provider:model}' },
);
const fileSchema = z.looseObject({ roles: z.array(roleSchema).default([]) });

export type LoadedSelfPlay = { ok: true; roles: SelfPlayRole[] } | { ok: false; diagnostics: Diagnostic[] };

/** Reads `self-play.yaml` when the agent folder has one; no file is no roles (each persona is then played by the default player). */
export function loadSelfPlayConfig(agentDir: string): LoadedSelfPlay {
  // The reader every file of the folder goes through: a folder, a pipe or a link out of the folder by this name is a finding.
  const read = readAgentFile(agentDir, SELF_PLAY_FILE);
  if (!read.ok) {
    if (read.problem === 'missing') return { ok: true, roles: [] };
    return { ok: false, diagnostics: [{ severity: 'error', file: SELF_PLAY_FILE, message: `${SELF_PLAY_FILE} ${read.message}` }] };
  }
  const parsed = parseYamlSource(read.text, SELF_PLAY_FILE);
  if (!parsed.source) return { ok: false, diagnostics: parsed.diagnostics };
  const source = parsed.source;
  const document = fileSchema.safeParse(source.data ?? {});
  if (!document.success)
    return {
      ok: false,
      diagnostics: schemaDiagnostics(document.error.issues, source, {
        examples: { roles: 'roles: [{id: gemini-user, script: ./mock-responses-selfplay.yaml}]' },
      }),
    };
  const diagnostics: Diagnostic[] = [];
  const roles = document.data.roles.map((role, index): SelfPlayRole => {
    const at = (key: string) => locateField(source, ['roles', index, key])?.line;
    if ('script' in role) {
      const inside = resolveInsideAgent(agentDir, role.script);
      if (!inside.ok)
        diagnostics.push({ severity: 'error', file: SELF_PLAY_FILE, line: at('script'), message: `roles[${index}].script ${role.script} ${inside.message}` });
      return { id: role.id, script: inside.ok ? inside.path : role.script };
    }
    try {
      parseModelRef(role.model, `roles[${index}].model`);
    } catch (error) {
      diagnostics.push({ severity: 'error', file: SELF_PLAY_FILE, line: at('model'), message: error instanceof Error ? error.message : String(error) });
    }
    return role;
  });
  return diagnostics.length > 0 ? { ok: false, diagnostics } : { ok: true, roles };
}
