import { z } from 'zod';
import type { AugmentFactory } from '../../kernel/augment.js';
import { configDiagnostics } from '../config-diagnostics.js';
import { createRequestInputTool, DEFAULT_REQUEST_INPUT_DESCRIPTION } from './request-input.js';

const configSchema = z.object({
  requestInputDescription: z.string().trim().min(1).optional(),
});

function toolDescription(config: Record<string, unknown>): { text: string; custom: boolean } {
  const parsed = configSchema.safeParse(config);
  const custom = parsed.success ? parsed.data.requestInputDescription : undefined;
  return custom ? { text: custom, custom: true } : { text: DEFAULT_REQUEST_INPUT_DESCRIPTION, custom: false };
}

export const turnControlAugment: AugmentFactory = {
  type: 'turnControl',
  summary: 'Lets the agent end a turn with one blocking question; the turn ends input-required and the next message answers it.',
  skill: 'turnControl',
  validateConfig: (config, file) => configDiagnostics(configSchema, config, file),
  describe(_agent, config) {
    const description = toolDescription(config);
    return {
      id: 'turnControl',
      type: 'turnControl',
      tools: ['request_input'],
      behavior: this.summary,
      rows: [
        { label: 'Exposed tool', value: 'request_input' },
        {
          label: 'Behavior',
          value: 'request_input({prompt, reason?}) shows the prompt as the reply and ends the turn input-required after its tool batch settles',
        },
        { label: 'Description override', value: description.custom ? 'custom (augment.yaml)' : 'default' },
        { label: 'Description chars', value: String(description.text.length) },
      ],
    };
  },
  create({ config }) {
    const tool = createRequestInputTool(toolDescription(config).text);
    return { id: 'turnControl', tools: () => [tool] };
  },
};
