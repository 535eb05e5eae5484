import type { Pool } from 'pg';
import type { SessionEntry, SessionHeader } from '../entries.js';
import { newestFirst, summarizeSession, type SessionSummary } from '../session-summary.js';

/**
 * Per session, only what a summary reads: the header, the first user message, how many there
 * were, and from the last one on the entries that say how its turn ended. The ending is found by
 * the text of each entry, never by parsing it as JSON in the database: an entry may hold a NUL,
 * which PostgreSQL's JSON operators refuse. `summarizeSession` checks the candidates exactly.
 */
const SUMMARIES = `
  SELECT s.id, s.header, s.updated_at, first_user.entry AS first_user, users.count, tail.entries AS tail, compactions.count AS compactions
  FROM auggy_sessions s
  CROSS JOIN LATERAL (
    SELECT e.entry FROM auggy_events e
    WHERE e.agent_key = s.agent_key AND e.session_id = s.id AND e.kind = 'user'
    ORDER BY e.id LIMIT 1
  ) first_user
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS count, max(e.id) AS last_id FROM auggy_events e
    WHERE e.agent_key = s.agent_key AND e.session_id = s.id AND e.kind = 'user'
  ) users
  CROSS JOIN LATERAL (
    SELECT json_agg(e.entry ORDER BY e.id) AS entries FROM auggy_events e
    WHERE e.agent_key = s.agent_key AND e.session_id = s.id AND e.id >= users.last_id
      AND (e.kind = 'user' OR (e.kind = 'event' AND (
        position('"type":"RUN_FINISHED"' IN e.entry::text) > 0 OR position('"type":"RUN_ERROR"' IN e.entry::text) > 0))
        OR (e.kind = 'record' AND position('"name":"usage"' IN e.entry::text) > 0))
  ) tail
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS count FROM auggy_events e
    WHERE e.agent_key = s.agent_key AND e.session_id = s.id AND e.kind = 'compaction'
  ) compactions
  WHERE s.agent_key = $1`;

interface SummaryRow {
  id: string;
  header: SessionHeader;
  updated_at: Date;
  first_user: SessionEntry;
  count: number;
  tail: SessionEntry[] | null;
  compactions: number;
}

/** One agent's sessions where something was said, newest first, as `auggy sessions` shows them. */
export async function pgSessionSummaries(pool: Pool, agentKey: string): Promise<SessionSummary[]> {
  const { rows } = await pool.query<SummaryRow>(SUMMARIES, [agentKey]);
  const found: SessionSummary[] = [];
  for (const row of rows) {
    // The tail starts at the last user message, so the first one counts once more here: the count is the table's.
    const summary = summarizeSession(row.id, [row.header, row.first_user, ...(row.tail ?? [])], row.updated_at);
    if (!summary) continue;
    // The tail holds the last turn's usage only: its cost is not the session's, so none is said.
    const { cost: _lastTurnOnly, ...whole } = summary;
    found.push({ ...whole, messages: row.count, ...(row.compactions > 0 ? { compactions: row.compactions } : {}) });
  }
  return found.sort(newestFirst);
}
