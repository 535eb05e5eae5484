import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_WRITE_REFUSED, type SessionEntry } from './entries.js';
import { isValidSessionId } from './ids.js';

/** How a session's last turn ended, as the person picking one needs to know it. */
export type SessionEnding = 'completed' | 'input-required' | 'failed' | 'canceled' | 'budget-exhausted' | 'interrupted';

const ENDINGS: readonly SessionEnding[] = ['completed', 'input-required', 'failed', 'canceled', 'budget-exhausted', 'interrupted'];

/** One line of `auggy sessions` and of the `--resume` picker. */
export interface SessionSummary {
  id: string;
  createdAt?: string;
  /** When it last changed (ISO 8601). */
  updatedAt: string;
  /** The person's first message, whole. */
  firstMessage: string;
  messages: number;
  ended: SessionEnding;
  /** The open question when `ended` is input-required. */
  question?: string;
  /** The context meter after the last turn: tokens in use, and the window when the folder stated it. */
  context?: { used: number; limit?: number };
  /** How many times the conversation was compacted; the log still holds every message. */
  compactions?: number;
  /** US dollars the session's turns cost, when every turn that spent tokens kept its cost. */
  cost?: number;
}

/** The session's cost so far after one more usage record; undefined once a turn spent tokens at no known price. */
function costAfter(total: number | undefined, data: Record<string, unknown>): number | undefined {
  if (total === undefined) return undefined;
  if (typeof data.cost === 'number') return total + data.cost;
  return Number(data.inputTokens) || Number(data.outputTokens) ? undefined : total;
}

/** The meter a turn's usage record kept, when it kept one. */
function contextOf(data: Record<string, unknown>): SessionSummary['context'] {
  const context = data.context;
  if (typeof context !== 'object' || context === null) return undefined;
  const { used, limit } = context as Record<string, unknown>;
  if (typeof used !== 'number') return undefined;
  return { used, ...(typeof limit === 'number' ? { limit } : {}) };
}

/** A session read from its log; undefined when nothing was ever said in it (a chat opened and quit). */
export function summarizeSession(id: string, entries: readonly SessionEntry[], updatedAt: Date): SessionSummary | undefined {
  let firstMessage: string | undefined;
  let createdAt: string | undefined;
  let messages = 0;
  let ended: SessionEnding = 'interrupted';
  let question: string | undefined;
  let context: SessionSummary['context'];
  let compactions = 0;
  let cost: number | undefined = 0;
  let priced = false;
  for (const entry of entries) {
    if (entry.kind === 'compaction') compactions++;
    if (entry.kind === 'record' && entry.name === 'usage') {
      context = contextOf(entry.data) ?? context;
      cost = costAfter(cost, entry.data);
      priced ||= typeof entry.data.cost === 'number';
    }
    if (entry.kind === 'header') createdAt = entry.createdAt;
    if (entry.kind === 'user') {
      firstMessage ??= entry.text;
      messages++;
      // A turn with no end event yet was cut off (a crash, a killed process).
      ended = 'interrupted';
      question = undefined;
    }
    if (entry.kind === 'record' && entry.name === LOG_WRITE_REFUSED) ended = 'failed';
    if (entry.kind !== 'event') continue;
    if (entry.event.type === 'RUN_FINISHED') {
      // The log keeps events as data: the result is read, not assumed.
      const result = (entry.event.result ?? {}) as { status?: unknown; message?: unknown };
      ended = ENDINGS.find((ending) => ending === result.status) ?? 'interrupted';
      question = ended === 'input-required' && typeof result.message === 'string' ? result.message : undefined;
    }
    if (entry.event.type === 'RUN_ERROR') ended = 'failed';
  }
  if (firstMessage === undefined) return undefined;
  return {
    id,
    ...(createdAt ? { createdAt } : {}),
    updatedAt: updatedAt.toISOString(),
    firstMessage,
    messages,
    ended,
    ...(question ? { question } : {}),
    ...(context ? { context } : {}),
    ...(compactions > 0 ? { compactions } : {}),
    ...(cost !== undefined && priced ? { cost } : {}),
  };
}

function readEntries(file: string): SessionEntry[] {
  const entries: SessionEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as SessionEntry);
    } catch {
      // A line cut off by a crash says nothing about how the session went.
    }
  }
  return entries;
}

/**
 * The sessions of a folder store (`.auggy/sessions`), newest first, leaving out those where
 * nothing was said. Another store lists its own and summarizes each with `summarizeSession`.
 */
export function folderSessionSummaries(sessionsDir: string): SessionSummary[] {
  if (!existsSync(sessionsDir)) return [];
  const found: SessionSummary[] = [];
  for (const id of readdirSync(sessionsDir)) {
    const file = join(sessionsDir, id, 'events.jsonl');
    if (!isValidSessionId(id) || !existsSync(file)) continue;
    const summary = summarizeSession(id, readEntries(file), statSync(file).mtime);
    if (summary) found.push(summary);
  }
  return found.sort(newestFirst);
}

/** The order every session list is in: last changed first, then by id, newest first. */
export function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id);
}

/** Whether anything was said in the session, without reading more of its log than needed. */
export function sessionHasMessage(eventsFile: string): boolean {
  return existsSync(eventsFile) && readFileSync(eventsFile, 'utf8').includes('"kind":"user"');
}
