import type { HostInputResult } from '../../kernel/augment.js';
import type { BoardStore } from './board-store.js';
import { writeRefusal } from './line-rules.js';
import type { LineSpec } from './config.js';
import { BOARD_STATE_KEY } from './shared-state.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseBoardFlag(value: string): { name: string; text: string } | HostInputResult {
  const split = value.indexOf('=');
  if (split <= 0) {
    return { ok: false, message: `--board takes line=text, like --board queue="review the docs"; got "${value}"`, reason: `"${value}" names no line` };
  }
  return { name: value.slice(0, split).trim(), text: value.slice(split + 1) };
}

/** The same rules as applyBoardFlag, writing nothing: every flag is checked before any is applied. */
export function checkBoardFlag(specs: readonly LineSpec[], value: string): HostInputResult {
  const parsed = parseBoardFlag(value);
  if ('message' in parsed) return parsed;
  const refusal = writeRefusal(specs, parsed.name, parsed.text, 'person');
  return refusal === undefined ? { ok: true, message: '' } : { ok: false, message: `--board ${parsed.name}: ${refusal}`, reason: refusal };
}

/**
 * `auggy run --print --board line=text`: sets one of the person's lines before the turn. A refusal
 * is `ok: false`, and the CLI exits 2 without running the turn.
 */
export async function applyBoardFlag(store: BoardStore, value: string): Promise<HostInputResult> {
  const parsed = parseBoardFlag(value);
  if ('message' in parsed) return parsed;
  const { name, text } = parsed;
  const outcome = await store.write(name, text, 'person');
  // Quiet on success, so scripts reading stderr see only what went wrong.
  return outcome.ok ? { ok: true, message: '' } : { ok: false, message: `--board ${name}: ${outcome.reason}`, reason: outcome.reason };
}

/** A client line as sent: the `{ text }` shape the snapshot carries, or just the text. */
function clientText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isPlainObject(value) && typeof value.text === 'string') return value.text;
  return undefined;
}

/**
 * serve: a client's `state.board` is written as the person's hand. Clients send back the whole
 * state they were given, so a line equal to the board is an echo and skipped. A line that differs
 * and is the person's (owner person or both) is written, with its STATE_DELTA. Anything else (an
 * agent's line, an unknown line, a value that is not text, text too long) is refused: not
 * applied, and the reasons come back as the returned sentences for the caller to show the client.
 */
export async function applyClientBoard(store: BoardStore, state: Record<string, unknown>): Promise<string[]> {
  const board = state[BOARD_STATE_KEY];
  if (board === undefined) return [];
  if (!isPlainObject(board)) return [`state.${BOARD_STATE_KEY} is not an object of lines ({ "<line>": { "text": "..." } }), so nothing in it was applied`];
  const current = new Map(store.lines().map((line) => [line.name, line.text]));
  const refusals: string[] = [];
  for (const [name, value] of Object.entries(board)) {
    const text = clientText(value);
    if (text === undefined) {
      refusals.push(`line "${name}" is not text or { "text": "..." }`);
      continue;
    }
    if (current.get(name) === text) continue;
    const outcome = await store.write(name, text, 'person');
    if (!outcome.ok) refusals.push(outcome.reason);
  }
  return refusals;
}
