import type { CommandOutput, SlashCommand } from '../../kernel/augment.js';
import type { GoalConfig } from './config.js';
import { MAX_CONDITION_CHARS } from './config.js';
import { formatElapsed, lastVerdict, type GoalState } from './goal-state.js';
import type { GoalStore } from './goal-store.js';
import { continuationDirective } from './judge-goal.js';

/** `/goal <word>` clears when the word is one of these (any case, trimmed). */
export const GOAL_CLEAR_WORDS = ['clear', 'stop', 'off', 'reset', 'none', 'cancel'] as const;

function isClearWord(args: string): boolean {
  return (GOAL_CLEAR_WORDS as readonly string[]).includes(args.trim().toLowerCase());
}

const STANDING: Record<GoalState['status'], string> = {
  active: 'active: the agent keeps working until it is met',
  waiting: 'waiting for your answer, which resumes it',
  paused: 'paused: /goal resume goes on',
  achieved: 'achieved',
  'budget-exhausted': 'ended: budget exhausted',
};

/** What `/goal` prints: the condition, time, turns, tokens and the last verdict. */
export function goalStatusLines(state: GoalState | undefined, elapsedMs: number, config: GoalConfig): string[] {
  if (!state) return ['No goal is set. /goal <condition> sets one and starts working on it.'];
  const verdict = lastVerdict(state);
  const bounds = [
    `${state.turns} of ${config.maxTurns} turns evaluated`,
    `${state.tokens}${config.maxTokens !== undefined ? ` of ${config.maxTokens}` : ''} tokens used`,
    `${formatElapsed(elapsedMs)}${config.maxWallSeconds !== undefined ? ` of ${formatElapsed(config.maxWallSeconds * 1000)}` : ''} elapsed`,
  ];
  return [
    `Goal (${STANDING[state.status]}): ${state.condition}`,
    bounds.join(', '),
    verdict ? `Last verdict: ${verdict.met ? 'met' : 'not met'}: ${verdict.reason}` : 'Not evaluated yet.',
    ...(state.note !== null && state.status !== 'active' ? [state.note] : []),
  ];
}

/**
 * `/goal <condition>` sets the goal and starts a turn on it; `/goal` shows it; `/goal pause`,
 * `/goal resume`; `/goal clear` (or an alias) drops it.
 */
export function goalCommand(store: GoalStore, config: GoalConfig, augmentId: string): SlashCommand {
  return {
    name: 'goal',
    summary: 'keep working until a condition holds: /goal <condition>, /goal, /goal pause, /goal resume, /goal clear',
    usage: '[<condition> | pause | resume | clear]',
    async run(args): Promise<CommandOutput> {
      const text = args.trim();
      const state = store.state;
      if (text === '') return { lines: goalStatusLines(state, store.elapsedMs(), config) };
      if (isClearWord(text)) return { lines: [(await store.clear()) ? 'Goal cleared.' : 'No goal was set; nothing to clear.'] };
      const word = text.toLowerCase();
      if (word === 'pause') {
        if (!state || (state.status !== 'active' && state.status !== 'waiting')) return { lines: ['No goal is open; nothing to pause.'], isError: true };
        await store.moveTo('paused', 'goal paused by /goal pause; /goal resume goes on');
        return { lines: ['Goal paused: no turn starts for it until /goal resume.'] };
      }
      if (word === 'resume') {
        if (!state) return { lines: ['No goal is set. /goal <condition> sets one.'], isError: true };
        if (state.status === 'active') return { lines: ['The goal is already active.'] };
        if (state.status === 'achieved') return { lines: ['The goal was achieved; /goal <condition> sets a new one.'], isError: true };
        // An exhausted goal resumed gets its bounds afresh: the person chose to spend more.
        const resumed = state.status === 'budget-exhausted' ? await store.set(state.condition) : await store.moveTo('active', null);
        return {
          lines: [`Goal resumed: ${state.condition}`],
          startTurn: { message: resumed ? continuationDirective(resumed) : state.condition, by: augmentId },
        };
      }
      if (text.length > MAX_CONDITION_CHARS) {
        return { lines: [`The condition is ${text.length} characters; a goal takes at most ${MAX_CONDITION_CHARS}. Say it shorter.`], isError: true };
      }
      const replaced = state !== undefined && (state.status === 'active' || state.status === 'waiting' || state.status === 'paused');
      await store.set(text);
      return {
        lines: [
          `Goal set: ${text}`,
          ...(replaced ? ['It replaces the previous goal.'] : []),
          `The agent keeps working until it is met (at most ${config.maxTurns} turns).`,
        ],
        startTurn: { message: text },
      };
    },
  };
}
