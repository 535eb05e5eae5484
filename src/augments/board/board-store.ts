import { z } from 'zod';
import { SessionError, type SessionHandle } from '../../session/session.js';
import type { LineSpec, Owner, Writer } from './config.js';
import { writeRefusal } from './line-rules.js';

/** The session file that holds the board. */
export const BOARD_FILE = 'board.json';

const storedLineSchema = z.object({ text: z.string(), by: z.enum(['agent', 'person']), at: z.string() });
// Lines the config no longer lists stay in the file untouched: a config edit must not erase them.
const boardFileSchema = z.object({ version: z.literal(1), lines: z.record(z.string(), storedLineSchema) });

type StoredLine = z.infer<typeof storedLineSchema>;
type StoredLines = Record<string, StoredLine>;

/** One line as both sides see it. `by` and `at` are absent while it still holds its initial text. */
export interface BoardLine {
  name: string;
  owner: Owner;
  description?: string;
  text: string;
  by?: Writer;
  at?: string;
}

export type WriteOutcome = { ok: true; line: BoardLine } | { ok: false; reason: string };

export interface BoardStoreOptions {
  session: SessionHandle;
  specs: readonly LineSpec[];
  warn(message: string): void;
  /** A line changed: written through this store, or found changed by another writer on a fresh read. */
  onChange(line: BoardLine): void;
  now?: () => Date;
}

/** A SessionError as it is; anything else is a bug and thrown on. */
function sessionErrorOf(error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  throw error;
}

function notSaved(name: string, error: SessionError): WriteOutcome {
  return { ok: false, reason: `the board could not be saved, so line "${name}" is unchanged: ${error.message}` };
}

function sameLine(a: StoredLine | undefined, b: StoredLine | undefined): boolean {
  return a?.text === b?.text && a?.by === b?.by && a?.at === b?.at;
}

/**
 * The board of one session, with board.json as the source of truth. Every read and every write
 * reads the file afresh and every write changes exactly one line, so two writers (the agent's
 * turn and the person's command, or two processes on one session) never lose each other's lines:
 * the last write to a line wins and the other lines are untouched.
 */
export class BoardStore {
  private stored: StoredLines;
  private readonly now: () => Date;

  constructor(private readonly options: BoardStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.stored = this.readFile('the board starts from its initial values') ?? {};
  }

  get specs(): readonly LineSpec[] {
    return this.options.specs;
  }

  /** Every configured line, in order, read fresh; lines another writer changed are announced. */
  lines(): BoardLine[] {
    const fresh = this.readFile('the board keeps the lines it last knew');
    if (fresh === undefined) this.restore();
    else this.adopt(fresh);
    return this.view();
  }

  /**
   * Sets one line for one side once board.json is saved, or says why not (unknown line, not
   * theirs, too long, not saved): a write the disk refuses is refused here, before anyone (the
   * model, the client) hears of it.
   */
  async write(name: string, text: string, by: Writer): Promise<WriteOutcome> {
    const next = this.nextLines(name, text, by);
    if ('reason' in next) return next;
    try {
      await this.options.session.writeState(BOARD_FILE, { version: 1, lines: next.lines });
    } catch (error) {
      return notSaved(name, sessionErrorOf(error));
    }
    return this.commit(name, next.lines);
  }

  private nextLines(name: string, text: string, by: Writer): { lines: StoredLines } | { ok: false; reason: string } {
    const refusal = writeRefusal(this.options.specs, name, text, by);
    if (refusal !== undefined) return { ok: false, reason: refusal };
    const base = this.readFile('the board keeps the lines it last knew');
    if (base !== undefined) this.adopt(base);
    return { lines: { ...this.stored, [name]: { text, by, at: this.now().toISOString() } } };
  }

  private commit(name: string, lines: StoredLines): WriteOutcome {
    this.stored = lines;
    const line = this.view().find((candidate) => candidate.name === name);
    if (!line) throw new Error(`board line ${name} vanished after it was written`);
    this.options.onChange(line);
    return { ok: true, line };
  }

  private view(): BoardLine[] {
    return this.options.specs.map((spec) => {
      const stored = this.stored[spec.name];
      const base = { name: spec.name, owner: spec.owner, ...(spec.description !== undefined ? { description: spec.description } : {}) };
      return stored ? { ...base, text: stored.text, by: stored.by, at: stored.at } : { ...base, text: spec.initial ?? '' };
    });
  }

  /** Takes the file's lines as current, announcing each configured line that differs from before. */
  private adopt(fresh: StoredLines): void {
    const changed = this.options.specs.filter((spec) => !sameLine(this.stored[spec.name], fresh[spec.name]));
    this.stored = fresh;
    if (changed.length === 0) return;
    const view = this.view();
    for (const spec of changed) {
      const line = view.find((candidate) => candidate.name === spec.name);
      if (line) this.options.onChange(line);
    }
  }

  /**
   * After the file was set aside mid-session, puts the board back so a later read does not reset
   * it. Reads do not wait for it: this handle reads what it wrote at once.
   */
  private restore(): void {
    this.options.session.writeState(BOARD_FILE, { version: 1, lines: this.stored }).catch((error: unknown) => {
      this.options.warn(`board: ${BOARD_FILE} could not be written back: ${sessionErrorOf(error).message}`);
    });
  }

  /**
   * The file's lines; `{}` when there is no file yet. A file that is not JSON, or not a board, is
   * set aside (kept for inspection) with a warning, and undefined says the caller must do without it.
   */
  private readFile(fallback: string): StoredLines | undefined {
    const { session, warn } = this.options;
    const read = session.readState(BOARD_FILE);
    if (read.status === 'missing') return {};
    if (read.status === 'corrupt') {
      warn(`board: ${BOARD_FILE} was not readable JSON and was set aside as ${read.setAsideTo}; ${fallback}`);
      return undefined;
    }
    const parsed = boardFileSchema.safeParse(read.value);
    if (parsed.success) return parsed.data.lines;
    try {
      const setAsideTo = session.setAsideState(BOARD_FILE, 'invalid');
      warn(
        `board: ${BOARD_FILE} does not hold a board (${parsed.error.issues[0]?.message ?? 'unexpected shape'}) and was set aside as ${setAsideTo}; ${fallback}`,
      );
    } catch {
      warn(`board: ${BOARD_FILE} does not hold a board and could not be set aside; ${fallback}`);
    }
    return undefined;
  }
}
