import type { AdminRow, AugmentFactory } from '../../kernel/augment.js';
import { GOAL_CLEAR_WORDS, goalCommand } from './commands.js';
import { goalConfigSchema, resolveGoalConfig, validateGoalConfig } from './config.js';
import { lastVerdict } from './goal-state.js';
import { GOAL_FILE, GoalStore } from './goal-store.js';
import { continuationDirective, judgeGoal } from './judge-goal.js';
import { goalPromptBlock } from './prompt-block.js';

const SUMMARY =
  'Keeps one condition per session and, after each turn while it is open, asks a tool-less evaluator whether it holds; ' +
  'when it does not, the next turn starts at once, bounded by turns, tokens and time, and the goal waits whenever the person is asked.';

export const goalAugment: AugmentFactory = {
  type: 'goal',
  summary: SUMMARY,
  skill: 'goal',
  // A scenario that shows the loop, the person's turn and the goal assertions (`auggy test`).
  rootTemplates: { 'tests/goal.scenario.yaml': 'tests/goal.scenario.yaml' },
  validateConfig: (config, file) => validateGoalConfig(config, file),
  describe(agent, config) {
    const valid = goalConfigSchema.safeParse(config).success;
    const settings = resolveGoalConfig(config);
    const rows: AdminRow[] = [
      { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
      { label: 'Exposed tools', value: 'none (the evaluator has no tools either)' },
      { label: 'Evaluator model', value: settings.evaluatorModel ?? `${agent.engine.provider}:${agent.engine.model} (the agent's own model)` },
      {
        label: 'Bounds',
        value: [
          `maxTurns ${settings.maxTurns}${config.maxTurns === undefined ? ' (default)' : ''}`,
          `maxTokens ${settings.maxTokens ?? 'none'}`,
          `maxWallSeconds ${settings.maxWallSeconds ?? 'none'}`,
        ].join(', '),
      },
      { label: 'Commands', value: `/goal <condition>, /goal, /goal pause, /goal resume, /goal clear (also ${GOAL_CLEAR_WORDS.slice(1).join(', ')})` },
      { label: 'Indicator', value: '◎ goal (N): N turns evaluated for the open goal' },
      { label: 'State', value: `<session>/${GOAL_FILE}` },
    ];
    if (!valid) rows.push({ label: 'Config', value: 'invalid (auggy validate says why); the defaults apply' });
    return { id: 'goal', type: 'goal', tools: [], behavior: SUMMARY, rows };
  },
  create(setup) {
    const config = resolveGoalConfig(setup.config);
    const store = new GoalStore(setup.session, setup.warn);
    const command = goalCommand(store, config, setup.augmentId);
    return {
      id: setup.augmentId,
      promptBlock: () => goalPromptBlock(store.state, config),
      commands: () => [command],
      indicator: () => {
        const state = store.state;
        if (!state) return undefined;
        if (state.status === 'active') return `◎ goal (${state.turns})`;
        if (state.status === 'waiting') return `◎ goal (${state.turns}) waiting`;
        if (state.status === 'paused') return '◎ goal paused';
        return undefined;
      },
      holdsFloor: () => (store.state?.status === 'active' ? 'goal' : undefined),
      pendingContinuation: () => {
        const state = store.state;
        return state?.status === 'active' ? continuationDirective(state) : undefined;
      },
      async onUserMessage(text) {
        // The person's answer to what a turn asked resumes the goal.
        if (store.state?.status === 'waiting' && text.trim() !== '') await store.moveTo('active', null);
      },
      afterTurn: (turn) => judgeGoal({ store, complete: setup.complete, emit: setup.emit, config }, turn),
      async onCleared() {
        await store.clear();
      },
      snapshot() {
        // The key is always there while the augment is on, so scripts need not test for it.
        const state = store.state;
        if (!state) return { goal: null };
        const verdict = lastVerdict(state);
        return {
          goal: {
            condition: state.condition,
            status: state.status,
            met: state.status === 'achieved',
            turns: state.turns,
            tokens: state.tokens,
            elapsedSeconds: Math.round(store.elapsedMs() / 1000),
            reason: verdict?.reason ?? null,
            ...(state.note !== null ? { note: state.note } : {}),
            verdicts: state.verdicts.map(({ met, reason, turn }) => ({ turn, met, reason })),
          },
        };
      },
    };
  },
};
