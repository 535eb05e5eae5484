import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../../session/atomic-write.js';
import { ensureRealFolders } from '../../session/real-paths.js';

/** How many entries are kept; older ones fall off. */
export const INPUT_HISTORY_LIMIT = 500;

/** Per agent folder, beside the sessions, so up/down recalls what was typed in earlier runs. */
export function inputHistoryPath(agentDir: string): string {
  return join(agentDir, '.auggy', 'input-history.json');
}

/** The saved entries, oldest first. A missing or unreadable file is an empty history. */
export function loadInputHistory(path: string): string[] {
  if (!existsSync(path)) return [];
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { entries?: unknown };
    return Array.isArray(parsed.entries) ? parsed.entries.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

/** Adds an entry unless it repeats the last one, keeping the newest `limit`. */
export function withEntry(entries: readonly string[], entry: string, limit = INPUT_HISTORY_LIMIT): string[] {
  if (entry.trim() === '') return [...entries];
  const next = entries.at(-1) === entry ? [...entries] : [...entries, entry];
  return next.slice(Math.max(0, next.length - limit));
}

/**
 * Appends to the file, re-reading it first so two chats in one folder both keep their lines.
 * Written atomically; a failure comes back as a sentence, never a throw.
 */
export async function saveInputHistoryEntry(path: string, entry: string, limit = INPUT_HISTORY_LIMIT): Promise<{ entries: string[]; error?: string }> {
  const entries = withEntry(loadInputHistory(path), entry, limit);
  try {
    // .auggy must be a real folder: a link would put what was typed somewhere else.
    ensureRealFolders(dirname(dirname(path)), [basename(dirname(path))], { create: true });
    await writeFileAtomic(path, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`);
    return { entries };
  } catch (error) {
    return { entries, error: `input history not saved to ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
