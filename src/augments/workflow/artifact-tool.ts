import { z } from 'zod';
import type { KernelTool, ToolResult } from '../../kernel/tool.js';
import type { ArtifactDef, WorkflowModel } from './pack-model.js';

/** RFC 0009's tool, named as PromptKit names it. */
export const ARTIFACT_TOOL = 'workflow__set_artifact';

/**
 * An artifact's definition as the workflow writes it: the current state's own first, else any
 * state's (artifacts are workflow-wide), as PromptKit's state machine looks the mode up.
 */
export function artifactDef(model: WorkflowModel, state: string, name: string): ArtifactDef | undefined {
  return model.states[state]?.artifacts[name] ?? Object.values(model.states).find((one) => one.artifacts[name])?.artifacts[name];
}

/** Writes one artifact and answers how it stands, or says why it cannot. */
export type SetArtifact = (name: string, value: string) => Promise<string>;

/**
 * workflow__set_artifact({name, value}): `name` an enum of every artifact the pack declares. It is
 * applied at once, as PromptKit applies it (it moves nothing, so nothing waits for the batch).
 */
export function createArtifactTool(model: WorkflowModel, set: SetArtifact): KernelTool {
  const names = model.artifactNames;
  const inputSchema = z.object({
    name: z.enum(names as [string, ...string[]]).describe('The artifact name to set.'),
    value: z.string().describe('The artifact value.'),
  });
  return {
    name: ARTIFACT_TOOL,
    description: 'Set a workflow artifact value. Artifacts persist across state transitions.',
    inputSchema,
    async run(rawInput): Promise<ToolResult> {
      const parsed = inputSchema.safeParse(rawInput);
      if (!parsed.success) {
        return { isError: true, content: `Invalid arguments for ${ARTIFACT_TOOL}: ${z.prettifyError(parsed.error)}. The artifacts: ${names.join(', ')}.` };
      }
      return { content: await set(parsed.data.name, parsed.data.value) };
    },
  };
}
