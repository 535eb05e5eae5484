import type { SessionEnding, SessionSummary } from '../session/session-summary.js';

const ENDING: Record<SessionEnding, string> = {
  completed: 'completed',
  'input-required': 'waiting for your answer',
  failed: 'failed',
  canceled: 'canceled',
  'budget-exhausted': 'out of rounds',
  interrupted: 'interrupted',
};

/** How a session ended, in the words of the list. */
export function endingText(summary: SessionSummary): string {
  return ENDING[summary.ended];
}

/** `just now`, `5 minutes ago`, `yesterday`, then the date: the person recognises a session by when. */
export function whenText(iso: string, now = new Date()): string {
  const then = new Date(iso);
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const ago = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return ago(Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 86_400) return ago(Math.round(seconds / 3600), 'hour');
  if (seconds < 2 * 86_400) return 'yesterday';
  if (seconds < 7 * 86_400) return ago(Math.floor(seconds / 86_400), 'day');
  return then.toISOString().slice(0, 10);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, Math.max(1, max - 1))}…` : flat;
}

export interface SessionRow {
  id: string;
  when: string;
  ending: string;
  message: string;
}

/** The columns of one session, the first message cut to fit `width`. */
export function sessionRows(summaries: readonly SessionSummary[], width = 100, now = new Date()): SessionRow[] {
  const rows = summaries.map((summary) => ({
    id: summary.id,
    when: whenText(summary.updatedAt, now),
    ending: endingText(summary),
    message: summary.firstMessage,
  }));
  const fixed = (key: 'id' | 'when' | 'ending') => Math.max(0, ...rows.map((row) => row[key].length));
  const room = Math.max(12, width - fixed('id') - fixed('when') - fixed('ending') - 6);
  return rows.map((row) => ({
    id: row.id.padEnd(fixed('id')),
    when: row.when.padEnd(fixed('when')),
    ending: row.ending.padEnd(fixed('ending')),
    message: oneLine(row.message, room),
  }));
}

/** The list as plain lines, newest first: id, when, how it ended, the first message. */
export function sessionListLines(summaries: readonly SessionSummary[], width = 100, now = new Date()): string[] {
  return sessionRows(summaries, width, now).map((row) => `${row.id}  ${row.when}  ${row.ending}  ${row.message}`.trimEnd());
}
