import { outcomeLabel, type AskState } from './ask-state.js';

/** A revision quoted in every round's prompt is cut here; the whole text is in user_ask.json. */
const MAX_REVISION_CHARS = 300;

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REVISION_CHARS ? `${flat.slice(0, MAX_REVISION_CHARS - 1)}…` : flat;
}

/** The `<augment id="userAsk">` block: only while an ask is active, so a closed ask costs nothing. */
export function userAskPromptBlock(state: AskState | undefined): string | undefined {
  if (!state?.active) return undefined;
  const lines = ["The host tracks the user's current request (the ask) and judges each of your turns against it.", '', 'Current ask:', state.text];
  if (state.revisions.length > 0) {
    lines.push('', 'Earlier asks, oldest first:');
    for (const revision of state.revisions) lines.push(`- ${revision.outcome ? `[${outcomeLabel(revision.outcome)}] ` : ''}${shorten(revision.text)}`);
  }
  if (state.lastOutcome !== null) {
    lines.push('', `Last evaluation: ${outcomeLabel(state.lastOutcome)}${state.lastReason ? ` (${state.lastReason})` : ''}`);
  }
  lines.push(
    '',
    'Each user message becomes the ask as written. When the user refines the request, changes direction, or answers your question,',
    'call set_user_ask with the whole request as it now stands, in their terms. When they drop it, call clear_user_ask.',
    'Do not call either tool just to repeat the current ask.',
  );
  return lines.join('\n');
}
