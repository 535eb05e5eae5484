import { z } from 'zod';
import type { AugmentFactory } from '../../kernel/augment.js';
import { configDiagnostics } from '../config-diagnostics.js';
import { ASK_USER, createAskUserTool, DEFAULT_ASK_USER_DESCRIPTION } from './ask-user-tool.js';
import { MAX_FIELDS } from './field-spec.js';
import { MAX_REASKS } from './run-questionnaire.js';

const configSchema = z.object({
  askUserDescription: z.string().trim().min(1).optional(),
});

const SUMMARY =
  'Lets the agent ask the person structured questions mid-turn, one per field, and continue with the answers; ' +
  'where nobody can answer the result is no-answer at once.';

function toolDescription(config: Record<string, unknown>): { text: string; custom: boolean } {
  const parsed = configSchema.safeParse(config);
  const custom = parsed.success ? parsed.data.askUserDescription : undefined;
  return custom ? { text: custom, custom: true } : { text: DEFAULT_ASK_USER_DESCRIPTION, custom: false };
}

export const questionsAugment: AugmentFactory = {
  type: 'questions',
  summary: SUMMARY,
  skill: 'questions',
  validateConfig: (config, file) => configDiagnostics(configSchema, config, file),
  describe(_agent, config) {
    const description = toolDescription(config);
    const rows = [
      { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
      { label: 'Exposed tool', value: `${ASK_USER}({prompt, fields})` },
      {
        label: 'Behavior',
        value: `asks one question per field (at most ${MAX_FIELDS}), re-asks a refused field with the reason (${MAX_REASKS} times in all), and the turn continues with the result`,
      },
      { label: 'Result', value: '{status: "answered", answers} or {status: "no-answer", reason: away | refused | declined}' },
      { label: 'Nobody there', value: '--print, /away and serve for a client without protocolVersion answer no-answer (away) at once' },
      { label: 'Under serve', value: 'an AG-UI 1.0 client gets the questionnaire as one interrupt; its resume answers it and the turn carries on' },
      { label: 'Events', value: 'CUSTOM question, answered, questionnaire.result' },
      { label: 'Description override', value: description.custom ? 'custom (augment.yaml)' : 'default' },
    ];
    if (!configSchema.safeParse(config).success) rows.push({ label: 'Config', value: 'invalid (auggy validate says why); the defaults apply' });
    return { id: 'questions', type: 'questions', tools: [ASK_USER], behavior: SUMMARY, rows };
  },
  create({ config, augmentId }) {
    const tool = createAskUserTool(toolDescription(config).text);
    return { id: augmentId, tools: () => [tool] };
  },
};
