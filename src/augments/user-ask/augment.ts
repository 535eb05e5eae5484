import type { AdminRow, AugmentFactory } from '../../kernel/augment.js';
import { capAsk } from './ask-state.js';
import { askCommand, CLEAR_WORDS } from './commands.js';
import { resolveUserAskConfig, userAskConfigSchema, validateUserAskConfig } from './config.js';
import { judgeTurn } from './judge-turn.js';
import { userAskPromptBlock } from './prompt-block.js';
import { CLEAR_USER_ASK, SET_USER_ASK, createUserAskTools } from './tools.js';
import { USER_ASK_FILE, UserAskStore } from './user-ask-store.js';

const SUMMARY =
  "Tracks the user's current request with its revisions and, after each turn while it is active, asks a tool-less evaluator " +
  'whether the turn achieved it, is blocked, or is still in progress; it never starts a turn by itself.';

export const userAskAugment: AugmentFactory = {
  type: 'userAsk',
  summary: SUMMARY,
  skill: 'userAsk',
  validateConfig: (config, file) => validateUserAskConfig(config, file),
  describe(agent, config) {
    const valid = userAskConfigSchema.safeParse(config).success;
    const settings = resolveUserAskConfig(config);
    const rows: AdminRow[] = [
      { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
      { label: 'Exposed tools', value: `${SET_USER_ASK}({text}), ${CLEAR_USER_ASK}({})` },
      {
        label: 'Evaluator model',
        value: settings.evaluatorModel ?? `${agent.engine.provider}:${agent.engine.model} (the agent's own model)`,
      },
      { label: 'Evaluation', value: 'one completion with no tools after each completed, input-required or budget-exhausted turn while an ask is active' },
      { label: 'Max ask chars', value: `${settings.maxAskChars}${config.maxAskChars === undefined ? ' (default)' : ''}` },
      { label: 'Commands', value: `/ask, /ask <text>, /ask clear (also ${CLEAR_WORDS.slice(1).join(', ')})` },
      { label: 'Indicator', value: '? ask (N): N turns evaluated for the active ask' },
      { label: 'State', value: `<session>/${USER_ASK_FILE}` },
    ];
    if (!valid) rows.push({ label: 'Config', value: 'invalid (auggy validate says why); the defaults apply' });
    return { id: 'userAsk', type: 'userAsk', tools: [SET_USER_ASK, CLEAR_USER_ASK], behavior: SUMMARY, rows };
  },
  create(setup) {
    const { evaluatorModel, maxAskChars } = resolveUserAskConfig(setup.config);
    const store = new UserAskStore(setup.session, setup.warn);
    // A run elsewhere (another replica, a --print on the same store) changed the ask: this one's next turn sees it.
    setup.session.watchState((name) => {
      if (name === USER_ASK_FILE) store.reload();
    });
    const tools = createUserAskTools(store, maxAskChars);
    const command = askCommand(store, maxAskChars);
    // The last evaluator failure, until the next verdict: --output json says why nothing changed.
    let evaluationError: string | undefined;
    return {
      id: setup.augmentId,
      tools: () => tools,
      promptBlock: () => userAskPromptBlock(store.state),
      commands: () => [command],
      indicator: () => {
        const active = store.active;
        return active ? `? ask (${active.evaluatedTurns})` : undefined;
      },
      async onUserMessage(text) {
        // A blank message says nothing about what the person wants; the ask stays.
        if (text.trim() === '') return;
        await store.set(capAsk(text, maxAskChars).text, 'user');
      },
      async afterTurn(turn) {
        const outcome = await judgeTurn({ store, complete: setup.complete, emit: setup.emit, evaluatorModel }, turn);
        if (outcome.judged) evaluationError = undefined;
        else if (outcome.error !== undefined) evaluationError = outcome.error;
      },
      async onCleared() {
        await store.clear();
        evaluationError = undefined;
      },
      snapshot() {
        // The key is always there while the augment is on, so scripts need not test for it.
        const state = store.state;
        if (!state) return { ask: null };
        return {
          ask: {
            text: state.text,
            active: state.active,
            outcome: state.lastOutcome,
            reason: state.lastReason,
            evaluatedTurns: state.evaluatedTurns,
            revisions: state.revisions.map((revision) => revision.text),
            ...(evaluationError !== undefined ? { evaluationError } : {}),
          },
        };
      },
    };
  },
};
