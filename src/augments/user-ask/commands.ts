import type { CommandOutput, SlashCommand } from '../../kernel/augment.js';
import { MAX_REVISIONS, capAsk, outcomeLabel, type AskState } from './ask-state.js';
import type { UserAskStore } from './user-ask-store.js';

/** `/ask <word>` clears when the word is one of these (any case, trimmed); anything else is a new ask. */
export const CLEAR_WORDS = ['clear', 'stop', 'off', 'reset', 'none', 'cancel'] as const;

export function isClearWord(args: string): boolean {
  return (CLEAR_WORDS as readonly string[]).includes(args.trim().toLowerCase());
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** What `/ask` prints: the ask, how often it was judged, the last verdict, and its revisions. */
export function askStatusLines(state: AskState | undefined): string[] {
  if (!state) return ['No ask is tracked. Your next message becomes the ask, or set one with /ask <text>.'];
  const standing = state.active
    ? `active, ${plural(state.evaluatedTurns, 'turn')} evaluated`
    : `closed: ${state.lastOutcome ? outcomeLabel(state.lastOutcome) : 'not active'}`;
  const lines = [`Ask (${standing}): ${state.text}`];
  lines.push(state.lastOutcome ? `Last evaluation: ${outcomeLabel(state.lastOutcome)}: ${state.lastReason ?? 'no reason given'}` : 'Not evaluated yet.');
  if (!state.active) lines.push('Your next message starts a fresh ask.');
  if (state.revisions.length === 0) lines.push('No earlier revisions.');
  else {
    lines.push(`Revisions, oldest first (the last ${MAX_REVISIONS} are kept):`);
    state.revisions.forEach((revision, index) => {
      lines.push(`  ${index + 1}. ${revision.outcome ? `[${outcomeLabel(revision.outcome)}] ` : ''}${revision.text}`);
    });
  }
  return lines;
}

/** `/ask` shows the status, `/ask <text>` sets the ask by hand, `/ask clear` (or an alias) drops it. */
export function askCommand(store: UserAskStore, maxAskChars: number): SlashCommand {
  return {
    name: 'ask',
    summary: 'the tracked request: /ask shows it, /ask <text> sets it, /ask clear drops it',
    usage: '[<text> | clear]',
    async run(args): Promise<CommandOutput> {
      const text = args.trim();
      if (text === '') return { lines: askStatusLines(store.state) };
      if (isClearWord(text)) {
        return { lines: [(await store.clear()) ? 'Ask cleared: no request is tracked until your next message.' : 'No ask was tracked; nothing to clear.'] };
      }
      const capped = capAsk(text, maxAskChars);
      const revised = store.active !== undefined && store.active.text !== capped.text;
      const state = await store.set(capped.text, 'command');
      return {
        lines: [
          `Ask set: ${state.text}`,
          ...(capped.truncated ? [`(cut to ${maxAskChars} characters, the userAsk maxAskChars)`] : []),
          ...(revised ? ['The previous ask moved to the revision history.'] : []),
        ],
      };
    },
  };
}
