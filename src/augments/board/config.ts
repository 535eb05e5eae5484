import { z } from 'zod';
import type { Diagnostic } from '../../agent/types.js';
import { formatFieldPath } from '../../agent/yaml-source.js';

/** Longest text one line holds: the whole board rides in every round's system prompt. */
export const MAX_LINE_CHARS = 4000;

export const OWNERS = ['agent', 'person', 'both'] as const;
export type Owner = (typeof OWNERS)[number];

/** Who wrote a line: one of the two sides. */
export type Writer = 'agent' | 'person';

/**
 * A line name is typed in `/board set <line> <text>` and `--board line=text`, and becomes a JSON
 * Pointer segment in STATE_DELTA: no spaces, no `=`, no `/`.
 */
const LINE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MAX_NAME_CHARS = 40;

const KNOWN_LINE_KEYS = ['name', 'owner', 'initial', 'description'];

const lineSchema = z.object({
  name: z
    .string({ error: 'is required: the line\'s name, like "queue"' })
    .max(MAX_NAME_CHARS, `must be at most ${MAX_NAME_CHARS} characters`)
    .regex(LINE_NAME, 'must start with a letter and hold only letters, digits, - and _ (it is typed in /board set <line> and --board line=text)'),
  owner: z.enum(OWNERS, { error: 'must be agent, person or both' }).default('both'),
  initial: z.string({ error: 'must be text' }).max(MAX_LINE_CHARS, `must be at most ${MAX_LINE_CHARS} characters`).optional(),
  description: z.string({ error: 'must be text' }).optional(),
});

export const boardConfigSchema = z.object({
  lines: z
    .array(lineSchema, { error: 'must be a list of lines, each with a name (and optionally owner, initial, description)' })
    .min(1, 'must list at least one line, or be left out for the default queue and progress lines')
    .optional(),
});

export type LineSpec = z.infer<typeof lineSchema>;

/**
 * The board when augment.yaml lists no lines: the work-queue shape the board exists for, so
 * `type: board` alone (what `auggy create --augment board` writes) is a usable board.
 */
export const DEFAULT_LINES: readonly LineSpec[] = [
  { name: 'queue', owner: 'person', description: 'What the person wants done next; take work from here.' },
  { name: 'progress', owner: 'agent', description: 'How far along you are; the person reads it without asking.' },
];

export interface BoardConfig {
  lines: readonly LineSpec[];
  /** True when augment.yaml left `lines` out. */
  defaulted: boolean;
}

/** The configured lines; undefined when the config is invalid (validate says why). */
export function resolveBoardConfig(config: Record<string, unknown>): BoardConfig | undefined {
  const parsed = boardConfigSchema.safeParse(config);
  if (!parsed.success || duplicateNames(parsed.data.lines ?? []).length > 0) return undefined;
  return parsed.data.lines ? { lines: parsed.data.lines, defaulted: false } : { lines: DEFAULT_LINES, defaulted: true };
}

function duplicateNames(lines: readonly LineSpec[]): { index: number; first: number }[] {
  const seen = new Map<string, number>();
  const found: { index: number; first: number }[] = [];
  lines.forEach((line, index) => {
    const first = seen.get(line.name);
    if (first === undefined) seen.set(line.name, index);
    else found.push({ index, first });
  });
  return found;
}

function rawLines(config: Record<string, unknown>): unknown[] {
  return Array.isArray(config.lines) ? config.lines : [];
}

/** augment.yaml's `config:` checked: shape, unique names, and a warning for keys a line does not take. */
export function validateBoardConfig(config: Record<string, unknown>, file: string): Diagnostic[] {
  const at = (path: (string | number)[], severity: Diagnostic['severity'], message: string): Diagnostic => ({
    severity,
    file,
    field: formatFieldPath(['config', ...path]),
    message,
  });
  const parsed = boardConfigSchema.safeParse(config);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) =>
      at(
        issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
        'error',
        issue.message,
      ),
    );
  }
  const lines = parsed.data.lines ?? [];
  const diagnostics = duplicateNames(lines).map(({ index, first }) =>
    at(['lines', index, 'name'], 'error', `"${lines[index].name}" is already the name of lines[${first}]; line names must be unique`),
  );
  // Other versions may add keys; a typo such as `ownr:` would otherwise silently mean owner: both.
  rawLines(config).forEach((raw, index) => {
    if (raw === null || typeof raw !== 'object') return;
    for (const key of Object.keys(raw)) {
      if (!KNOWN_LINE_KEYS.includes(key)) {
        diagnostics.push(at(['lines', index, key], 'warning', `is not a line setting here and is ignored; a line takes ${KNOWN_LINE_KEYS.join(', ')}`));
      }
    }
  });
  return diagnostics;
}
